/// <reference lib="dom" />
/** Turns the element's attributes into the widget request (URL, headers) and its WebSocket topic. */

export type Kind = 'event' | 'broad' | 'sportsbook' | 'live-market';
const KINDS: readonly string[] = ['event', 'broad', 'sportsbook', 'live-market'];

export interface WidgetRequest {
  kind: Kind;
  /** Every fetch of the widget (the same URL each time, so caches share it; fetching counts no impression). */
  url: string;
  headers: Record<string, string>;
  /** WebSocket URL and topic for kinds the server pushes; undefined for polled-only kinds. */
  ws?: { url: string; topic: string; payloadUsable: boolean };
  /** Seconds between polls when the payload gives no refresh_interval_seconds. */
  defaultRefresh: number;
  /** Event widget: its day of history, for the sparklines. */
  history?: string;
}

/** attribute name -> query parameter, per kind (fallback-geo and advertiser-id apply to all). */
const PARAMS: Record<Kind, Record<string, string>> = {
  event: { slug: 'slug', 'display-format': 'display_format' },
  broad: { limit: 'limit', currency: 'currency' },
  sportsbook: { league: 'league', 'team-context': 'team_context', 'odds-format': 'odds_format' },
  'live-market': { asset: 'asset', horizon: 'horizon_minutes' },
};

/** Every attribute the element reads. */
export const ATTRIBUTES = [
  'kind',
  'api-base',
  'locale',
  'theme',
  'fallback-geo',
  'advertiser-id',
  'hide-when-empty',
  'compact',
  ...new Set(Object.values(PARAMS).flatMap(Object.keys)),
];

/**
 * Builds the request, or returns an error message for the page's developer (the console, never the
 * visitor) for a missing or unknown kind. `attr` reads an attribute; `base` is the API origin (the
 * script's own, unless api-base is set).
 */
export function widgetRequest(attr: (name: string) => string | null, base: string): WidgetRequest | string {
  const kind = attr('kind') ?? '';
  if (!KINDS.includes(kind))
    return `predictwire-widget: unknown kind "${kind}"; use event, broad, sportsbook or live-market`;
  const k = kind as Kind;
  const query = new URLSearchParams();
  for (const [name, param] of Object.entries({
    ...PARAMS[k],
    'fallback-geo': 'fallback_geo',
    'advertiser-id': 'advertiser_id',
  })) {
    const value = attr(name);
    if (value) query.set(param, value);
  }
  const api = new URL(attr('api-base') || base);
  const url = new URL(`/v1/widgets/${k}?${query}`, api).href;
  const locale = attr('locale');
  const headers: Record<string, string> = locale ? { 'accept-language': locale } : {};
  const wsBase = new URL('/v1/ws', api);
  wsBase.protocol = wsBase.protocol === 'https:' ? 'wss:' : 'ws:';
  const geo = attr('fallback-geo');
  if (geo) wsBase.searchParams.set('fallback_geo', geo);
  // Pushed payloads carry no advertiser: with one, a push only says "changed" and the element fetches
  // its own. A display format other than cents is a topic of its own (event:{slug}:{format}).
  const payloadUsable = !attr('advertiser-id');
  let ws: WidgetRequest['ws'];
  if (k === 'live-market') {
    ws = {
      url: wsBase.href,
      topic: `live-market:${(attr('asset') || 'BTC').toUpperCase()}:${attr('horizon') || '5'}`,
      payloadUsable,
    };
  } else if (k === 'event' && attr('slug')) {
    const format = attr('display-format');
    ws = {
      url: wsBase.href,
      topic: `event:${attr('slug')}${format && format !== 'cents' ? `:${format}` : ''}`,
      payloadUsable,
    };
  }
  const history =
    k === 'event' && attr('slug')
      ? new URL(
          `/v1/widgets/event/history?${new URLSearchParams({ slug: attr('slug')!, ...(geo ? { fallback_geo: geo } : {}) })}`,
          api,
        ).href
      : undefined;
  return { kind: k, url, headers, ws, defaultRefresh: k === 'live-market' ? 5 : 30, history };
}
