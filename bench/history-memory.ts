/**
 * `npx tsx bench/history-memory.ts`: Redis memory of event price history at its fullest. A private
 * redis-server receives 30 days of simulator refreshes every 5 minutes (every bucket of both series
 * filled, then trimmed), and MEMORY USAGE of each event's two keys is reported (bench/README.md).
 */
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../src/runtime/private-redis.js';
import { buildEvents } from '../src/sources/simulator/events.js';
import { historyKey, recordHistory } from '../src/store/price-history.js';

const DAYS = 30;
const STEP_MS = 5 * 60_000;
const server = await startPrivateRedis();
const redis = new Redis(server.url);
try {
  const end = Date.parse('2026-11-25T12:00:00Z');
  let events = buildEvents(1, new Date(end)).events;
  for (let t = end - DAYS * 86_400_000; t <= end; t += STEP_MS) {
    const data = buildEvents(1, new Date(t));
    events = data.events;
    await recordHistory(redis, data, new Date(t));
  }
  const rows = [];
  for (const e of events) {
    const [fine, hourly] = await Promise.all([
      redis.memory('USAGE', historyKey(e.slug, '5m')),
      redis.memory('USAGE', historyKey(e.slug, '1h')),
    ]);
    const quotes = e.outcomes.reduce((n, o) => n + o.quotes.length, 0);
    rows.push({
      slug: e.slug,
      outcomes: e.outcomes.length,
      quotes,
      points5m: await redis.zcard(historyKey(e.slug, '5m')),
      points1h: await redis.zcard(historyKey(e.slug, '1h')),
      bytes: Number(fine) + Number(hourly),
    });
  }
  console.table(rows);
  const total = rows.reduce((s, r) => s + r.bytes, 0);
  console.log(
    `events: ${rows.length}; mean per event: ${Math.round(total / rows.length / 1024)} KiB; max: ${Math.round(Math.max(...rows.map((r) => r.bytes)) / 1024)} KiB; per quote: ${Math.round(total / rows.reduce((s, r) => s + r.quotes, 0) / 1024)} KiB`,
  );
} finally {
  redis.disconnect();
  await server.stop();
}
