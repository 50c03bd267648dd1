/// <reference lib="dom" />
/**
 * The widget's markup for one state: the payload's body between its disclosures and footer, or a
 * visitor-facing message while there is no data. Pure (no DOM), so the unit tests render exactly
 * what the element shows.
 */
import type { EventHistoryPayload } from '../../widgets/event-history.js';
import type {
  BroadWidgetPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SportsbookWidgetPayload,
} from '../../widgets/payload-schemas.js';
import { renderBroad } from './broad.js';
import { renderEvent } from './event.js';
import { adLine, esc, footer, gamblingHelp, note, type Compliance } from './html.js';
import type { Labels } from './labels.js';
import { renderLive } from './live.js';
import type { Kind } from './request.js';
import { renderSportsbook } from './sportsbook.js';

export type Payload = (BroadWidgetPayload | EventWidgetPayload | SportsbookWidgetPayload | LiveMarketPayload) & {
  stale?: true;
  resolved_geo: string;
} & Compliance;

/** What the element knows when it paints. */
export interface ViewState {
  /** The kind attribute (names the widget), whatever its value. */
  kind: string;
  /** The locale attribute as given: it formats numbers, dates and times. */
  locale: string | undefined;
  payload: Payload | undefined;
  /** The last request failed (its details went to the console). */
  failed: boolean;
  /** ...and will be retried. */
  retrying: boolean;
  /** Event widget: the outcomes whose further operators the reader opened. */
  open?: ReadonlySet<number>;
  /** Event widget: the day's history, for the sparklines, once loaded. */
  history?: EventHistoryPayload;
}

type Title = 'titleEvent' | 'titleBroad' | 'titleSportsbook' | 'titleLive' | 'titleOther';
const TITLES: Record<Kind, Title> = {
  event: 'titleEvent',
  broad: 'titleBroad',
  sportsbook: 'titleSportsbook',
  'live-market': 'titleLive',
};

/** The one line a payload with nothing lawful to show gets. */
const EMPTY: Record<Payload['widget_class'], 'noOperator' | 'noSportsbook' | 'noVenue'> = {
  broad: 'noOperator',
  'event-specific': 'noOperator',
  sportsbook: 'noSportsbook',
  'live-market': 'noVenue',
};

/**
 * True when the payload has no operator to show the visitor: nothing lawful in their region, or (a
 * live market) no venue for its horizon at all, whatever the window's state. A live market whose
 * venues may be shown but quote nothing now, or whose feed is late, is not empty: it says so itself.
 */
export function isEmpty(p: Payload): boolean {
  switch (p.widget_class) {
    case 'broad':
      return !p.operators.length;
    case 'event-specific':
      return p.outcomes.every((o) => !o.comparison_pool.length);
    case 'sportsbook':
      return !p.odds_matrix.operators.length;
    case 'live-market':
      return p.unavailable_reason === 'not_lawful_here' || p.unavailable_reason === 'no_venue_for_horizon';
  }
}

function body(
  p: Payload,
  L: Labels,
  locale: string | undefined,
  open: ReadonlySet<number> | undefined,
  history?: EventHistoryPayload,
): string {
  if (isEmpty(p))
    return note(
      L[
        p.widget_class === 'live-market' && p.unavailable_reason === 'no_venue_for_horizon'
          ? 'noVenueForHorizon'
          : EMPTY[p.widget_class]
      ],
    );
  switch (p.widget_class) {
    case 'broad':
      return renderBroad(p, L, locale);
    case 'event-specific':
      return renderEvent(p, L, locale, open, history);
    case 'sportsbook':
      return renderSportsbook(p, L, locale);
    case 'live-market':
      return renderLive(p, L, locale);
  }
}

/**
 * The locale attribute as a tag numbers and dates can be formatted in: `en_US` is no BCP 47 tag and
 * would make `Intl` throw, so an invalid one falls back to the labels' language. Absent, the
 * browser's own.
 */
export function formatLocale(attr: string | undefined, L: Labels): string | undefined {
  if (!attr) return undefined;
  try {
    return Intl.getCanonicalLocales(attr)[0] ?? L.lang;
  } catch {
    return L.lang;
  }
}

/** When the payload's data last changed; the sportsbook payload does not say. */
const updatedAt = (p: Payload): string | undefined =>
  'last_verified_timestamp' in p ? p.last_verified_timestamp : 'timestamp' in p ? p.timestamp : undefined;

/**
 * The widget in the language of `L`, which is also its `lang`: the words around the payload are the
 * table's, so that is the language a screen reader should speak. It is a group, not a landmark, so
 * two widgets of a kind on one page need no distinct names.
 */
export function renderView(s: ViewState, L: Labels): string {
  const p = s.payload;
  // An own-property test: a kind such as "constructor" must not find Object's.
  const label = L[Object.hasOwn(TITLES, s.kind) ? TITLES[s.kind as Kind] : 'titleOther'];
  let content: string;
  if (p) {
    const locale = formatLocale(s.locale, L);
    content =
      adLine(p) +
      (s.failed
        ? `<p class="alert" role="status">${esc(s.retrying ? L.lastDataRetrying : L.lastDataStopped)}</p>`
        : '') +
      (p.stale ? `<p class="alert">${esc(L.stale)}</p>` : '') +
      body(p, L, locale, s.open, s.history) +
      gamblingHelp(p) +
      footer(L, p.resolved_region || p.resolved_geo, updatedAt(p), locale);
  } else if (s.failed) {
    content = `<p class="alert" role="alert"><strong>${esc(L.unavailable)}</strong>${s.retrying ? ` ${esc(L.retrying)}` : ''}</p>`;
  } else {
    content = `<p class="muted" role="status">${esc(L.loading)}</p>`;
  }
  // Only while loading is the widget a skeleton the element sizes (index.ts).
  return `<div class="w${p || s.failed ? '' : ' sk'}" part="widget" role="group" aria-label="${esc(label)}" lang="${esc(L.lang)}">${content}</div>`;
}
