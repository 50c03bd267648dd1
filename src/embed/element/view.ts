/// <reference lib="dom" />
/**
 * The widget's markup for one state: the payload's body between its alerts and footer, or a message
 * while there is no data. Pure (no DOM), so the unit tests render exactly what the element shows.
 */
import type { BroadWidgetPayload, EventWidgetPayload, LiveMarketPayload, SportsbookWidgetPayload } from '../../widgets/payload-schemas.js';
import { renderBroad } from './broad.js';
import { renderEvent } from './event.js';
import { esc, footer } from './html.js';
import type { Labels } from './labels.js';
import { renderLive } from './live.js';
import type { Kind } from './request.js';
import { renderSportsbook } from './sportsbook.js';

export type Payload = (BroadWidgetPayload | EventWidgetPayload | SportsbookWidgetPayload | LiveMarketPayload) & { stale?: true; resolved_geo: string };

/** What the element knows when it paints. */
export interface ViewState {
  /** The kind attribute (names the section), whatever its value. */
  kind: string;
  /** The locale attribute as given: it formats dates and times. */
  locale: string | undefined;
  payload: Payload | undefined;
  /** The problem to show now; '' for none. */
  message: string;
  retrying: boolean;
  /** The last failure, kept until data arrives: without data the widget stays "unavailable". */
  problem: string;
}

type Title = 'titleEvent' | 'titleBroad' | 'titleSportsbook' | 'titleLive' | 'titleOther';
const TITLES: Record<Kind, Title> = {
  event: 'titleEvent',
  broad: 'titleBroad',
  sportsbook: 'titleSportsbook',
  'live-market': 'titleLive',
};

function body(p: Payload, L: Labels, locale: string | undefined): string {
  switch (p.widget_class) {
    case 'broad': return renderBroad(p, L);
    case 'event-specific': return renderEvent(p, L);
    case 'sportsbook': return renderSportsbook(p, L, locale);
    case 'live-market': return renderLive(p, L);
  }
}

/**
 * The locale attribute as a tag dates and times can be formatted in: `en_US` is no BCP 47 tag and
 * would make `toLocaleString` throw, so an invalid one falls back to the labels' language.
 * Absent, the browser's own.
 */
function formatLocale(attr: string | undefined, L: Labels): string | undefined {
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
 * The widget's section in the language of `L`, which is also its `lang`: the words around the
 * payload are the table's, so that is the language a screen reader should speak.
 */
export function renderView(s: ViewState, L: Labels): string {
  const p = s.payload;
  // An own-property test: a kind such as "constructor" must not find Object's.
  const label = L[Object.prototype.hasOwnProperty.call(TITLES, s.kind) ? TITLES[s.kind as Kind] : 'titleOther'];
  let content: string;
  if (p) {
    const locale = formatLocale(s.locale, L);
    content = (s.message ? `<p class="alert" role="status">${esc((s.retrying ? L.lastDataRetrying : L.lastDataStopped)(s.message))}</p>` : '') +
      (p.stale ? `<p class="alert">${esc(L.stale)}</p>` : '') +
      body(p, L, locale) + footer(L, p.resolved_geo, updatedAt(p), locale);
  } else if (s.message || s.problem) {
    content = `<p class="alert" role="alert"><strong>${esc(L.unavailable)}</strong> ${esc(s.message)}${s.retrying ? ` ${esc(L.retrying)}` : ''}</p>`;
  } else {
    content = `<p class="muted" role="status">${esc(L.loading)}</p>`;
  }
  return `<section class="w" part="widget" aria-label="${esc(label)}" lang="${esc(L.lang)}">${content}</section>`;
}
