/**
 * The serving part of an API process: the payload cache, the live payloads, the WebSocket topics,
 * and what a compliance change or a snapshot's freshness changes in them.
 */
import { overdueRows } from '../catalog/compliance/review.js';
import { complianceState, onComplianceChange } from '../catalog/compliance/state.js';
import type { Config } from '../config.js';
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { LiveEngine } from '../live/engine.js';
import type { Logger } from '../runtime/log.js';
import { exposeCompliance } from '../metrics/compliance.js';
import { exposeLiveEngine } from '../live/metrics.js';
import { exposePayloadBuilds } from '../metrics/payloads.js';
import { exposeSnapshotFreshness } from '../metrics/snapshots.js';
import type { Clock } from '../model/clock.js';
import type { ApiSnapshots } from '../store/api-snapshots.js';
import type { RankingInputs } from '../tracking/ranking-inputs.js';
import type { ServeContext } from './context.js';
import { liveMarketBuilder } from './live-market-body.js';
import { LivePayloads } from './live-payloads.js';
import { PayloadCache } from './payload-cache.js';
import { type TopicSink, Topics } from './topics.js';

/** The WebSocket hub, as the serving layer pushes to it. */
export interface PushTarget extends TopicSink {
  hasSubscribers(topic: string, country: string): boolean;
}

export interface ApiServing {
  ctx: ServeContext;
  live: LivePayloads;
  topics: Topics;
  /** Pushes go to `hub` from now until the lifecycle stops: the feeds are cut before the hub closes. */
  pushTo(life: Lifecycle, hub: PushTarget): void;
}

export function startServing(
  life: Lifecycle,
  config: Config,
  log: Logger,
  { snapshots, freshness }: ApiSnapshots,
  engine: LiveEngine,
  ranking: RankingInputs,
  now: Clock,
): ApiServing {
  // Bodies carry the stale marker: rebuild them when a snapshot turns stale or fresh again.
  const payloads = new PayloadCache((kind, key) => freshness.staleMarker(kind, key));
  freshness.onChange((id) => payloads.invalidate(id.kind, id.key));
  const ctx: ServeContext = { config, snapshots, payloads, ranking, now };
  const live = new LivePayloads(engine, liveMarketBuilder(config, engine), config.live.pushIntervalMs);
  life.onStop(() => live.stop());
  let hub: PushTarget | undefined;
  const topics = new Topics(ctx, live);
  topics.follow(snapshots, () => hub, log);
  const overdue = () => overdueRows(complianceState().rules, now(), config.complianceReviewDays);
  const warnOverdue = () => {
    const rows = overdue();
    if (rows.length > 0)
      log.warn(
        { overdue: rows.length, reviewDays: config.complianceReviewDays, oldest: rows[0] },
        'compliance rule rows overdue for review: npm run compliance -- audit',
      );
  };
  // A suspension or new rules change what every body may show: none built before is served again,
  // and every WebSocket subscriber gets the new body now.
  const unfollow = onComplianceChange((_state, rulesChanged) => {
    payloads.invalidateAll();
    live.refresh();
    topics.pushEvents(hub);
    if (rulesChanged) warnOverdue();
  });
  life.onStop(unfollow);
  warnOverdue();
  exposeCompliance({ overdue: () => overdue().length, suspensions: () => complianceState().suspensions.length });
  exposeSnapshotFreshness(freshness);
  exposeLiveEngine(engine, config.live.staleAfterMs);
  exposePayloadBuilds(() => [...payloads.buildsByKind, ['live-market', live.builds] as const]);
  return {
    ctx,
    live,
    topics,
    pushTo(life, target) {
      hub = target;
      live.onPush(
        (topic, country, body) => hub?.push(topic, country, body),
        (topic, country) => hub?.hasSubscribers(topic, country) ?? false,
      );
      // Registered after the hub's close, so run before it: nothing is pushed to a closing hub.
      life.onStop(() => {
        hub = undefined;
      });
    },
  };
}
