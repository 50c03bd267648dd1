/**
 * The tracking part of an API process: the click, impression and postback buffers (written to Redis
 * in batches, spilled to the data folder at a stop Redis cannot take), and the ranking signals.
 */
import { OPERATORS } from '../catalog/operators.js';
import type { Config } from '../config.js';
import type { Lifecycle } from '../runtime/lifecycle.js';
import type { Logger } from '../runtime/log.js';
import { exposeDataDir } from '../metrics/data-dir.js';
import { exposeImpressionQueue } from '../metrics/http.js';
import type { Clock } from '../model/clock.js';
import type { ApiRedis } from '../store/api-redis.js';
import { DataDirWatch } from '../store/data-dir-watch.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import { ClickBuffer } from './click-buffer.js';
import { ImpressionCounter } from './impression-counter.js';
import { postbackBuffer, type PostbackBuffer } from './postback-buffer.js';
import { RankingInputs } from './ranking-inputs.js';
import { spillDir } from './spill-file.js';

export interface ApiTracking {
  impressions: ImpressionCounter;
  clicks: ClickBuffer;
  postbacks: PostbackBuffer;
  ranking: RankingInputs;
  /** Whether the data folder can take spilled counts (/readyz says when not). */
  dataDir: DataDirWatch;
  /** Spills every buffer now: a process forced to exit before its stop finished. */
  abandon(): void;
}

/** Starts the buffers; their stop writes (or spills) what they hold, so it comes after the server's. */
export async function startTracking(
  life: Lifecycle,
  config: Config,
  log: Logger,
  redis: ApiRedis,
  snapshots: SnapshotCache,
  clock: Clock,
): Promise<ApiTracking> {
  // Where counts would be spilled at a stop: said to be unwritable or full before anything needs it.
  const dataDir = await life.start(
    async () => {
      const watch = new DataDirWatch(spillDir(config.dataDir), log);
      await watch.start();
      return watch;
    },
    (watch) => watch.stop(),
  );
  exposeDataDir(dataDir);
  const impressions = new ImpressionCounter(redis.requestRedis, log, undefined, spillDir(config.dataDir));
  const clicks = new ClickBuffer(redis.requestRedis, log, {
    max: config.clickBufferMax,
    maxPerVisitorDay: config.clickMaxPerVisitorDay,
    spillDir: spillDir(config.dataDir),
    attributionMs: config.clickAttributionMs,
  });
  const postbacks = postbackBuffer(redis.requestRedis, log, spillDir(config.dataDir));
  await life.start(
    () => {
      impressions.start();
      clicks.start();
      postbacks.start();
    },
    () => Promise.all([impressions.stop(), clicks.stop(), postbacks.stop()]),
  );
  exposeImpressionQueue(impressions);
  // Ranking signals are held in memory, reloaded when metrics change and every 15 s for new clicks.
  const ranking = new RankingInputs(redis.redis, log, {
    operatorIds: OPERATORS.map((op) => op.id),
    oiPeriodMs: config.ranking.oiPeriodMinutes * 60_000,
    ctrWindowDays: config.ranking.ctrWindowDays,
    refreshMs: 15_000,
    now: clock,
  });
  life.onStop(() => ranking.stop());
  snapshots.onChange((snap) => {
    if (snap.kind === 'metrics') void ranking.reload();
  });
  return {
    impressions,
    clicks,
    postbacks,
    ranking,
    dataDir,
    abandon() {
      clicks.abandon();
      impressions.abandon();
      postbacks.abandon();
    },
  };
}
