/**
 * The catalog's body (docs/contract.md, "Catalog"): the same for every caller, built once per version
 * of the snapshots behind it (dropped when events change; the key holds the sportsbook versions, so
 * a league's new snapshot is a new entry).
 */
import { ASSETS, HORIZONS, LEAGUES, type League } from '../model/index.js';
import type { Snapshot } from '../store/schemas.js';
import { buildCatalog, nextCatalogChange } from '../widgets/catalog.js';
import type { ServeContext } from './context.js';
import type { Built } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import { requireSnapshot } from './snapshot-lookup.js';
import { BODY_TTL_MS } from './widget-context.js';

const LIVE = ASSETS.map((asset) => ({ asset, horizons: HORIZONS }));

type Leagues = Array<{ league: League; snap: Snapshot<'sportsbook'> | undefined }>;

/** @returns the catalog body's getter, which throws Problem 503 before the first events snapshot. */
export function catalogBodies(ctx: ServeContext): () => Representation {
  const build = (leagues: Leagues, nowMs: number): Built => {
    const events = requireSnapshot(ctx.snapshots, 'events', 'all');
    const now = new Date(nowMs);
    const changedAt = [events.changedAt, ...leagues.map((l) => l.snap?.changedAt ?? '')].reduce((a, b) =>
      b > a ? b : a,
    );
    const input = {
      events: events.data.events,
      leagues: leagues.map((l) => ({ league: l.league, data: l.snap?.data })),
      live: LIVE,
      changedAt,
    };
    // An event closing or a matchup starting changes the lists, snapshot change or not.
    const expiresAt = Math.min(nextCatalogChange(input, now) ?? Infinity, nowMs + BODY_TTL_MS);
    return { payload: buildCatalog(input, now), changedAt, expiresAt };
  };
  return () => {
    const leagues = LEAGUES.map((league) => ({ league, snap: ctx.snapshots.get('sportsbook', league) }));
    const key = ['catalog', ...leagues.map((l) => l.snap?.version ?? 0)].join('|');
    return ctx.payloads.getOrBuild('events', key, ctx.now(), build, leagues);
  };
}
