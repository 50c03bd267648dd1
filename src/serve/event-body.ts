/** The event widget's body for a slug and a viewer: shared by the REST route and the `event:{slug}` topic. */
import type { DisplayFormat } from '../model/index.js';
import { buildEventWidget } from '../widgets/event-widget.js';
import type { ServeContext } from './context.js';
import type { Built, CachedBody } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import { requireEvent, requireSnapshot } from './snapshot-lookup.js';
import { VariantKeys } from './variant-keys.js';
import { BODY_TTL_MS, widgetContext } from './widget-context.js';

type EventParts = [slug: string, format: DisplayFormat, advertiserId: string | undefined, country: string];

/** Event bodies, built once per snapshot version and variant. */
export type EventBodies = (
  slug: string,
  format: DisplayFormat,
  advertiserId: string | undefined,
  country: string,
) => Representation;

/** @returns a function that throws Problem 404 for an unknown slug, 503 before the first snapshot. */
export function eventBodies(ctx: ServeContext): EventBodies {
  const keys = new VariantKeys<CachedBody>((p) => `event|${p[0]}|${p[1]}|${p[2] ?? ''}|${p[3]}`);
  const build = ([slug, format, advertiserId, country]: EventParts, nowMs: number): Built => {
    const snap = requireSnapshot(ctx.snapshots, 'events', 'all');
    const event = requireEvent(snap, slug);
    const payload = buildEventWidget(
      event,
      snap.changedAt,
      format,
      widgetContext(ctx.config, new Date(nowMs), advertiserId, `event|${snap.version}`, country),
    );
    return { payload, changedAt: snap.changedAt, expiresAt: nowMs + BODY_TTL_MS };
  };
  return (slug, format, advertiserId, country) => {
    const parts: EventParts = [slug, format, advertiserId, country];
    return ctx.payloads.getOrBuild('events', keys.of(parts), ctx.now(), build, parts);
  };
}
