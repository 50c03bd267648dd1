/**
 * The live engine as metrics: ticks applied, the price feed's age per asset, and the age of each
 * venue's quote by the venue's own clock (API process).
 */
import { Counter, Gauge } from 'prom-client';
import type { LiveEngine } from './engine.js';
import { ASSETS, HORIZONS } from '../model/index.js';
import { type Clock, systemClock } from '../model/clock.js';

let engine: LiveEngine | undefined;
let staleAfterMs = Infinity;
let nowMs: Clock = systemClock;

// Every API worker holds the same data: the primary's /metrics shows it once, not summed per worker.
const SHARED = 'max' as const;

// The engine already counts; reading its counters at scrape time keeps the tick path untouched.
new Counter({
  name: 'predictwire_live_ticks_applied_total',
  aggregator: SHARED,
  help: 'Price ticks applied by the live engine',
  collect() {
    this.reset();
    this.inc(engine?.stats().ticksApplied ?? 0);
  },
});

new Counter({
  name: 'predictwire_live_bad_ticks_total',
  aggregator: SHARED,
  help: 'Price ticks dropped as malformed or stamped in the future',
  collect() {
    this.reset();
    this.inc(engine?.stats().badTicks ?? 0);
  },
});

new Counter({
  name: 'predictwire_live_ticks_dropped_total',
  aggregator: SHARED,
  help: 'Price ticks dropped by the live engine, by reason: malformed, or future (stamped more than a second ahead of our clock)',
  labelNames: ['reason'],
  collect() {
    this.reset();
    for (const [reason, n] of Object.entries(engine?.stats().droppedTicks ?? {})) this.inc({ reason }, n);
  },
});

new Gauge({
  name: 'predictwire_price_feed_age_seconds',
  aggregator: SHARED,
  help: 'Seconds since the last applied tick, per asset',
  labelNames: ['asset'],
  collect() {
    this.reset();
    for (const [asset, at] of Object.entries(engine?.stats().lastTickAt ?? {}))
      this.set({ asset }, Math.max(0, (nowMs() - Date.parse(at)) / 1000));
  },
});

new Gauge({
  name: 'predictwire_price_feed_stale',
  aggregator: SHARED,
  help: '1 when an asset has had no tick for longer than LIVE_STALE_AFTER_SECONDS (its market shows no prices)',
  labelNames: ['asset'],
  collect() {
    this.reset();
    if (!engine) return;
    for (const [asset, stale] of Object.entries(priceFeedStaleness(engine, staleAfterMs, nowMs())))
      this.set({ asset }, stale ? 1 : 0);
  },
});

new Gauge({
  name: 'predictwire_venue_quote_age_seconds',
  aggregator: SHARED,
  help: "Age of each venue's latest quote by the venue's own time (venueTs), per operator, asset and horizon; past the venue's bound it is withheld",
  labelNames: ['operator', 'asset', 'horizon'],
  collect() {
    this.reset();
    if (!engine) return;
    for (const asset of ASSETS) {
      for (const horizon of HORIZONS) {
        for (const q of engine.heldQuotes(asset, horizon))
          this.set(
            { operator: q.operatorId, asset, horizon: String(horizon) },
            Math.max(0, (nowMs() - Date.parse(q.venueTs)) / 1000),
          );
      }
    }
  },
});

/** Per asset, whether its last tick is older than `staleAfter` ms (an asset never ticked is stale). */
export function priceFeedStaleness(live: LiveEngine, staleAfter: number, now: number): Record<string, boolean> {
  const last = live.stats().lastTickAt as Record<string, string | undefined>;
  const out: Record<string, boolean> = {};
  for (const asset of ASSETS) {
    const at = last[asset];
    out[asset] = at === undefined || now - Date.parse(at) > staleAfter;
  }
  return out;
}

/** Reports `live` on /metrics; `staleAfter` is the live market's staleness limit. */
export function exposeLiveEngine(live: LiveEngine, staleAfter: number, now: Clock = systemClock): void {
  engine = live;
  staleAfterMs = staleAfter;
  nowMs = now;
}
