/**
 * GET /v1/catalog: what a publisher can embed, without a key (docs/contract.md, "Catalog"). The
 * body is the same for every caller, so it is publicly cacheable; it is built once per version of
 * the snapshots behind it and served from the payload cache (dropped when events change; the key
 * holds the sportsbook versions, so a league's new snapshot is a new entry).
 */
import { ASSETS, HORIZONS } from '../../live/market.js';
import { LEAGUES } from '../../model/index.js';
import { buildCatalog, nextCatalogChange } from '../../widgets/catalog.js';
import type { Deps } from '../deps.js';
import { cachedReply, CORS_HEADERS, jsonShape } from '../../transport/respond.js';
import { requireSnapshot } from '../../serve/snapshot-lookup.js';
import type { Handler } from '../../transport/types.js';
import { BODY_TTL_MS } from '../../serve/widget-context.js';

const LIVE = ASSETS.map((asset) => ({ asset, horizons: HORIZONS }));

export function catalogRoute(deps: Deps): Handler {
  const shape = jsonShape({ ...CORS_HEADERS, 'cache-control': `public, max-age=${deps.config.widgetMaxAgeSeconds}` });
  return (req) => {
    const events = requireSnapshot(deps.snapshots, 'events', 'all');
    const leagues = LEAGUES.map((league) => ({ league, snap: deps.snapshots.get('sportsbook', league) }));
    const nowMs = deps.now();
    const key = ['catalog', ...leagues.map((l) => l.snap?.version ?? 0)].join('|');
    let entry = deps.payloads.get('events', key, nowMs);
    if (!entry) {
      const now = new Date(nowMs);
      const changedAt = [events.changedAt, ...leagues.map((l) => l.snap?.changedAt ?? '')].reduce((a, b) => (b > a ? b : a));
      const input = { events: events.data.events, leagues: leagues.map((l) => ({ league: l.league, data: l.snap?.data })), live: LIVE, changedAt };
      // An event closing or a matchup starting changes the lists, snapshot change or not.
      const expiresAt = Math.min(nextCatalogChange(input, now) ?? Infinity, nowMs + BODY_TTL_MS);
      entry = deps.payloads.put('events', key, buildCatalog(input, now), changedAt, expiresAt);
    }
    return cachedReply(req, entry, shape);
  };
}
