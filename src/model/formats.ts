/** How a visitor asks prices and odds to be written (docs/contract.md, `display_format`, `odds_format`). */

/** The event widget's `display_format` values; `cents` is the default. */
export const DISPLAY_FORMATS = ['cents', 'implied_pct', 'decimal'] as const;
/** One of {@link DISPLAY_FORMATS}. */
export type DisplayFormat = (typeof DISPLAY_FORMATS)[number];

/** How the sportsbook widget writes odds (`odds_format`). */
export const ODDS_FORMATS = ['american', 'decimal', 'fractional'] as const;
/** One of {@link ODDS_FORMATS}. */
export type OddsFormat = (typeof ODDS_FORMATS)[number];
