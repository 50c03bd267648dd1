/**
 * What one event-widget rebuild costs, stage by stage, in this process: the body the data-moving
 * workload rebuilds most (every event variant after each 5 s refresh). Built from the simulator's
 * events at a fixed time, through the same builder, context, serialization and compression the API
 * uses; every stage is repeated until it has run for a while, and the median of five such rounds is
 * printed. Compare two commits by running it in each, alternately.
 *
 *   npx tsx bench/build-cost.ts [jurisdiction, default US-NJ]
 */
import { loadConfig } from '../src/config.js';
import { jsonRepresentation } from '../src/serve/payload-cache.js';
import { widgetContext } from '../src/serve/widget-context.js';
import { buildEvents } from '../src/sources/simulator/events.js';
import { compress } from '../src/transport/compression.js';
import { buildEventWidget } from '../src/widgets/event-widget.js';
import { median } from './lib/stats.js';

const jurisdiction = process.argv[2] ?? 'US-NJ';
// The builders read no Redis; the config only needs an address to be valid.
const config = loadConfig({ ...process.env, REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
const now = new Date('2026-12-02T12:00:00Z');
const event = buildEvents(20261202, now).events[0]!;
const changedAt = now.toISOString();
// One data version: the impression id and the link signatures are shared by every body of it, as
// in the API, where the first body of a version pays for them and the rest do not.
const variant = 'event|bench';

/** Microseconds per call of `f`, the median of five rounds of at least 200 ms each. */
function perCall(f: () => unknown): number {
  const rounds: number[] = [];
  for (let round = 0; round < 6; round++) {
    let calls = 0;
    const start = process.hrtime.bigint();
    let elapsed = 0n;
    while (elapsed < 200_000_000n) {
      for (let i = 0; i < 100; i++) f();
      calls += 100;
      elapsed = process.hrtime.bigint() - start;
    }
    // The first round warms the JIT.
    if (round > 0) rounds.push(Number(elapsed) / 1000 / calls);
  }
  return median(rounds);
}

const build = () =>
  buildEventWidget(event, changedAt, 'cents', widgetContext(config, now, undefined, variant, jurisdiction));
const payload = build();
const representation = jsonRepresentation(payload, now);
const stages: Array<[string, () => unknown]> = [
  ['build (context and widget)', build],
  ['serialize and tag (JSON, SHA-1)', () => jsonRepresentation(payload, now)],
  ['brotli as served', () => compress(representation.body, 'br')],
  ['gzip as served', () => compress(representation.body, 'gzip')],
];
process.stdout.write(`event ${event.slug}, ${jurisdiction}: ${representation.body.length} bytes\n`);
for (const [name, f] of stages) process.stdout.write(`${name.padEnd(34)} ${perCall(f).toFixed(1).padStart(7)} µs\n`);
