/** Kalshi's web pages for an event: the catalog's reviewed page slugs and the sources' markets both link to them. */

/** The series ticker of an event ticker: the part before the first hyphen (KXFED-26DEC → KXFED). */
export function seriesOf(eventTicker: string): string {
  return eventTicker.split('-', 1)[0] ?? eventTicker;
}

/**
 * The market's web page. With a reviewed page slug it is the documented
 * kalshi.com/markets/{series}/{page}/{event}; without one, kalshi.com/events/{EVENT_TICKER}.
 */
export function kalshiMarketUrl(eventTicker: string, page?: string, series: string = seriesOf(eventTicker)): string {
  return page
    ? `https://kalshi.com/markets/${series.toLowerCase()}/${page}/${eventTicker.toLowerCase()}`
    : `https://kalshi.com/events/${encodeURIComponent(eventTicker)}`;
}
