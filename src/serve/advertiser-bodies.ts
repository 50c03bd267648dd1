/** Bodies of the advertiser data endpoints (docs/contract.md: event list, operator comparison). */
import { catalogView } from '../catalog/shown-operators.js';
import { buildEventList, buildSpecificEvent } from '../widgets/advertiser-events.js';
import type { ServeContext } from './context.js';
import type { Built, CachedBody } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import { requireEvent, requireSnapshot } from './snapshot-lookup.js';
import { VariantKeys } from './variant-keys.js';
import { BODY_TTL_MS } from './widget-context.js';

function buildList(ctx: ServeContext, nowMs: number): Built {
  const snap = requireSnapshot(ctx.snapshots, 'events', 'all');
  const { a, b } = ctx.config.advertiserOperators;
  const payload = buildEventList(snap.data.events, new Date(nowMs), { operatorA: a, operatorB: b });
  // An event drops off the list when it closes, snapshot change or not.
  const nextClose = Math.min(...snap.data.events.map((e) => Date.parse(e.closesAt)).filter((t) => t > nowMs));
  return { payload, changedAt: snap.changedAt, expiresAt: Math.min(nextClose, nowMs + BODY_TTL_MS) };
}

/** The advertiser's event list. @throws Problem 503 before the first events snapshot. */
export function eventListBody(ctx: ServeContext): Representation {
  return ctx.payloads.getOrBuild('events', 'list', ctx.now(), buildList, ctx);
}

/** Slug, limit (undefined for all), jurisdiction. */
type SpecificParts = [slug: string, limit: number | undefined, country: string];

export type SpecificEventBodies = (...parts: SpecificParts) => Representation;

/** @returns a function that throws Problem 404 for an unknown slug, 503 before the first events snapshot. */
export function specificEventBodies(ctx: ServeContext): SpecificEventBodies {
  const keys = new VariantKeys<CachedBody>((p) => `specific|${p[0]}|${p[1] ?? 'all'}|${p[2]}`);
  const build = ([slug, limit, country]: SpecificParts): Built => {
    const snap = requireSnapshot(ctx.snapshots, 'events', 'all');
    const event = requireEvent(snap, slug);
    const { a, b } = ctx.config.advertiserOperators;
    const payload = buildSpecificEvent(
      event,
      snap.changedAt,
      { operatorA: a, operatorB: b, limit },
      catalogView(country),
    );
    return { payload, changedAt: snap.changedAt };
  };
  return (...parts) => {
    return ctx.payloads.getOrBuild('events', keys.of(parts), ctx.now(), build, parts);
  };
}
