/** What `SOURCES` picks a source for: the snapshot kinds, live prices and venue quotes. */
export const DATA_KINDS = ['events', 'sportsbook', 'metrics', 'fx', 'prices', 'quotes'] as const;
export type DataKind = (typeof DATA_KINDS)[number];
