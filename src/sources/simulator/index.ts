/**
 * The seeded, deterministic simulator: the default source when no upstream credentials are set,
 * so the service runs and demos with no network. Output is a pure function of (seed, ctx.now):
 * the same seed and clock give deep-equal data, a later clock gives drifted prices.
 */
import { LEAGUES, type League } from '../../model/index.js';
import type { EventsSource, FetchContext, FxSource, MetricsSource, SportsbookSource } from '../source.js';
import { buildEvents } from './events.js';
import { buildFx } from './fx.js';
import { buildMetrics } from './metrics.js';
import { createLeagueBuilder } from './season.js';

export type Simulator = EventsSource & SportsbookSource & MetricsSource & FxSource;

/** Rejects an aborted fetch or an invalid clock before doing any work. */
function check(ctx: FetchContext): Date {
  ctx.signal?.throwIfAborted();
  if (Number.isNaN(ctx.now.getTime())) throw new RangeError('simulator: ctx.now is an invalid Date');
  return ctx.now;
}

/**
 * Creates a simulator for a seed (an integer; different seeds tell different stories).
 * Each fetch runs synchronously in a few milliseconds; season schedules are cached per instance.
 */
export function createSimulator(opts: { seed: number }): Simulator {
  const { seed } = opts;
  if (!Number.isSafeInteger(seed)) throw new RangeError('simulator: seed must be an integer');
  const league = createLeagueBuilder(seed);
  return {
    name: 'simulator',
    async fetchEvents(ctx) {
      return buildEvents(seed, check(ctx));
    },
    async fetchLeague(lg: League, ctx) {
      return league(lg, check(ctx));
    },
    async fetchMetrics(ctx) {
      const now = check(ctx);
      return buildMetrics(
        seed,
        now,
        buildEvents(seed, now),
        LEAGUES.map((l) => league(l, now, true)),
      );
    },
    async fetchRates(ctx) {
      return buildFx(seed, check(ctx));
    },
  };
}
