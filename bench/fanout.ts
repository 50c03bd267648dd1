/**
 * Live fan-out (issue 13 part 4). WebSocket subscribers spread over several client processes,
 * against the API (API_WORKERS=1) and, in the same run, a raw uWS app publishing a frame of the same
 * size from the same Redis channel (bench/raw-publisher.ts). One server has clients at a time.
 *
 * Leading edge: ETH ticks published one at a time, spaced past the push coalescing interval, each
 * with a unique price found in the frames; latency is PUBLISH → frame received, every client.
 * Simulator feed: the feed runs as under `npm start`; a subscriber here stamps each tick as it
 * appears and frames are matched to ticks by the spot price they carry (coalescing wait included).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { freePort } from '../src/runtime/free-port.js';
import { formatMoneyPrecise } from '../src/domain/money.js';
import { ticksChannel } from '../src/store/keys.js';
import type { ServiceProcess } from '../test/support/service.js';
import { ClientPool } from './lib/client-pool.js';
import { treeRssKb } from './lib/cpu.js';
import type { BenchOptions } from './lib/options.js';
import { collectGarbage, inspectFlag } from './lib/heap.js';
import { spawnTs, waitForLine } from './lib/procs.js';
import { apiEnv, startStack, type Stack } from './lib/stack.js';
import { matchByPrice, median, percentile, type PriceEvent } from './lib/stats.js';
import { fixed, int, type Row } from './lib/table.js';

const ASSET = 'ETH';
const TOPIC = 'live-market:ETH:15';
const WARMUP_TICKS = 10;
const P99_TARGET = 1.5;
/** How long a leading-edge tick may take to reach every client before it counts frames as lost. */
const DELIVERY_WAIT_MS = 5_000;
/** How far the bench's stamp of a feed tick may trail a client's frame of it (see matchByPrice). */
const STAMP_SLACK_US = 20_000;
/** Sockets a server process needs beside its subscribers (Redis, HTTP, files). */
const FD_MARGIN = 200;
/** A server just started settles (startup garbage collected) before its memory is read. */
const SETTLE_MS = 2_000;
/** RSS growth per idle subscribed socket the API may show at 10,000 subscribers (issue 28). */
const MEMORY_TARGET_KIB = 1;

type Log = (line: string) => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const shown = (price: number) => formatMoneyPrecise(price, 'USD');

interface Target {
  label: 'raw' | 'predictwire';
  url: string;
  pid: number;
  /** Its inspector's port, to collect garbage before reading memory. */
  inspectPort: number;
}

interface PhaseResult {
  label: Target['label'];
  subscribers: number;
  latenciesMs: number[];
  expected: number;
  delivered: number;
  unmatched: number;
  closedEarly: number;
  /** Leading edge: ticks no client received at all. */
  ticksNeverSent?: number;
  rssKbPerSocket: number;
  /** The server's RSS before its clients connected (after a full GC), KiB. */
  idleRssKb: number;
}

/**
 * One server's phases at one count, alternated with the other server's over `--rounds`: the phase
 * with the median p99 stands for the server's latency (the slower of the middle two for an even
 * count; the p99 of one phase is set by its slowest tick or two, so one hiccup of the machine would
 * otherwise decide the row), frames are counted over all phases, and memory per socket is the median.
 */
function combine(all: PhaseResult[]): PhaseResult & { phases: number } {
  const byP99 = [...all].sort((a, b) => percentile(a.latenciesMs, 99) - percentile(b.latenciesMs, 99));
  const middle = byP99[byP99.length >> 1]!;
  const sum = (f: (r: PhaseResult) => number) => all.reduce((n, r) => n + f(r), 0);
  return {
    ...middle,
    expected: sum((r) => r.expected),
    delivered: sum((r) => r.delivered),
    unmatched: sum((r) => r.unmatched),
    closedEarly: sum((r) => r.closedEarly),
    ticksNeverSent: sum((r) => r.ticksNeverSent ?? 0),
    rssKbPerSocket: median(all.map((r) => r.rssKbPerSocket)),
    idleRssKb: median(all.map((r) => r.idleRssKb)),
    phases: all.length,
  };
}

const summary = (r: PhaseResult) => {
  const l = r.latenciesMs;
  return `p50 ${fixed(percentile(l, 50), 1)} · p99 ${fixed(percentile(l, 99), 1)} · max ${fixed(l.at(-1) ?? Number.NaN, 1)} ms`;
};

/** The hard open-file limit child processes can raise themselves to. */
function hardFdLimit(): number {
  const out = spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim();
  return out === 'unlimited' ? Number.POSITIVE_INFINITY : Number(out);
}

/** A real widget frame with a spot price in it, for the raw publisher to copy. */
async function widgetFrame(api: ServiceProcess, pub: Redis, price: number): Promise<string> {
  const ws = new WebSocket(`ws://127.0.0.1:${api.port}/v1/ws?fallback_geo=US-NJ`, { perMessageDeflate: false });
  try {
    const marker = `"spot_price":"${shown(price)}"`;
    const frame = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no widget frame with the published price within 10 s')), 10_000);
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.includes(marker)) {
          clearTimeout(timer);
          resolve(text);
        }
      });
    });
    await new Promise((r, j) => ws.once('open', r).once('error', j));
    ws.send(JSON.stringify({ op: 'subscribe', topic: TOPIC }));
    await sleep(200);
    await pub.publish(
      ticksChannel(ASSET),
      JSON.stringify({ asset: ASSET, price, ts: new Date().toISOString(), source: 'bench' }),
    );
    return await frame;
  } finally {
    ws.terminate();
  }
}

class Fanout {
  #price = 3_400.37;
  constructor(
    readonly stack: Stack,
    readonly pool: ClientPool,
    readonly pub: Redis,
    readonly spacingMs: number,
    readonly log: Log,
  ) {}

  /**
   * Connects `n` clients to `t` and returns its RSS before (KiB) and the memory it keeps per socket
   * (KiB): its RSS growth over the connect, each reading taken after a full garbage collection, so
   * what the connect burst left in the young generation is not counted as kept.
   */
  async #connect(t: Target, n: number): Promise<{ idleRssKb: number; rssKbPerSocket: number }> {
    await collectGarbage(t.inspectPort);
    const before = treeRssKb(t.pid);
    await this.pool.connect(t.url, TOPIC, n);
    await sleep(1_000);
    await collectGarbage(t.inspectPort);
    const rssKbPerSocket = (treeRssKb(t.pid) - before) / n;
    await this.pool.reset();
    return { idleRssKb: before, rssKbPerSocket };
  }

  async leadingEdge(t: Target, n: number, ticks: number): Promise<PhaseResult> {
    const memory = await this.#connect(t, n);
    const published: PriceEvent[] = [];
    for (let i = 0; i < WARMUP_TICKS + ticks; i++) {
      const price = (this.#price += 1);
      const tick = JSON.stringify({ asset: ASSET, price, ts: new Date().toISOString(), source: 'bench' });
      const at = nowUs();
      await this.pub.publish(ticksChannel(ASSET), tick);
      if (i >= WARMUP_TICKS) published.push({ price: shown(price), atUs: at });
      // One at a time: the next tick goes out once every client has this one (or after 5 s), then
      // past the coalescing interval, so every measured tick is a leading edge with nothing in flight.
      const deadline = Date.now() + DELIVERY_WAIT_MS;
      while ((await this.pool.count(shown(price))) < n && Date.now() < deadline) await sleep(10);
      await sleep(this.spacingMs);
    }
    const { arrivals, closedEarly } = await this.pool.collect();
    await this.pool.close();
    const measured = new Set(published.map((p) => p.price));
    const m = matchByPrice(published, new Map([...arrivals].filter(([price]) => measured.has(price))));
    const ticksNeverSent = published.filter((p) => !arrivals.get(p.price)?.length).length;
    return {
      label: t.label,
      subscribers: n,
      latenciesMs: m.latenciesMs,
      expected: n * ticks,
      delivered: m.latenciesMs.length,
      unmatched: m.unmatched,
      closedEarly,
      ticksNeverSent,
      ...memory,
    };
  }

  async underFeed(t: Target, n: number, seconds: number): Promise<PhaseResult> {
    const memory = await this.#connect(t, n);
    const ticks: PriceEvent[] = [];
    const sub = new Redis(this.stack.redis.url);
    sub.on('message', (_channel: string, message: string) => {
      const atUs = nowUs();
      ticks.push({ price: shown((JSON.parse(message) as { price: number }).price), atUs });
    });
    await sub.subscribe(ticksChannel(ASSET));
    // A tick published just before the subscription took effect is not stamped: let its frames land before the reset.
    await sleep(300);
    await this.pool.reset();
    await sleep(seconds * 1000);
    // Collect while ticks are still stamped: a later frame could match an older tick of the same price.
    const { arrivals, closedEarly } = await this.pool.collect();
    await sub.unsubscribe();
    sub.disconnect();
    await this.pool.close();
    const m = matchByPrice(ticks, arrivals, STAMP_SLACK_US);
    return {
      label: t.label,
      subscribers: n,
      latenciesMs: m.latenciesMs,
      expected: Number.NaN,
      delivered: m.latenciesMs.length,
      unmatched: m.unmatched,
      closedEarly,
      ...memory,
    };
  }
}

/** Runs the raw publisher for the length of `fn`. */
async function withRaw<T>(stack: Stack, templateFile: string, fn: (t: Target) => Promise<T>): Promise<T> {
  const [port, inspectPort] = [await freePort(), await freePort()];
  const raw = await spawnTs(
    'bench/raw-publisher.ts',
    { REDIS_URL: stack.redis.url },
    { args: [templateFile, String(port), ticksChannel(ASSET)], nodeFlags: [inspectFlag(inspectPort)] },
  );
  try {
    await waitForLine(raw, 'listening');
    await sleep(SETTLE_MS);
    return await fn({ label: 'raw', url: `ws://127.0.0.1:${port}/`, pid: raw.child.pid!, inspectPort });
  } finally {
    await raw.stop();
  }
}

export interface FanoutResult {
  rows: Row[];
  details: unknown[];
}

/** The fan-out parts selected in `o`: leading edge at each subscriber count, then under the simulator feed. */
export async function runFanout(o: BenchOptions, log: Log): Promise<FanoutResult> {
  const out: FanoutResult = { rows: [], details: [] };
  const counts = [
    ...(o.parts.includes('fanout') ? o.subscribers : []),
    ...(o.parts.includes('feed') ? [o.feedSubscribers] : []),
  ];
  const most = Math.max(...counts);
  const limit = hardFdLimit();
  if (most + FD_MARGIN > limit)
    throw new Error(
      `${most} subscribers need more open files than the hard limit (${limit}) allows; raise it (ulimit -Hn) or pass fewer --subscribers`,
    );
  // The bench follows the configured coalescing interval (LIVE_PUSH_INTERVAL_MS from this environment).
  const push: Record<string, string> = process.env.LIVE_PUSH_INTERVAL_MS
    ? { LIVE_PUSH_INTERVAL_MS: process.env.LIVE_PUSH_INTERVAL_MS }
    : {};
  const pushMs = loadConfig(apiEnv('redis://127.0.0.1:6379', push)).live.pushIntervalMs;
  const spacingMs = Math.max(250, Math.ceil(pushMs * 2.5));

  const stack = await startStack({ withData: false, strikes: [[ASSET, 15, 3_400]] });
  const pool = new ClientPool(o.clientProcs);
  const pub = new Redis(stack.redis.url);
  try {
    const apiExtra = { API_WORKERS: '1', WS_MAX_CONNECTIONS: String(most + FD_MARGIN), ...push };
    const first = await stack.startApi(apiExtra);
    const templateFile = join(mkdtempSync(join(tmpdir(), 'pw-bench-')), 'frame.json');
    const frame = await widgetFrame(first, pub, 3_399.11);
    writeFileSync(templateFile, frame);
    await first.stop();
    /**
     * A fresh API per measurement: memory per socket is read from RSS growth, which an API that
     * already served (and garbage-collected) thousands of sockets would blur.
     */
    const withApi = async <T>(fn: (t: Target) => Promise<T>): Promise<T> => {
      const inspectPort = await freePort();
      const api = await stack.startApi(apiExtra, { nodeFlags: [inspectFlag(inspectPort)] });
      try {
        await sleep(SETTLE_MS);
        return await fn({
          label: 'predictwire',
          url: `ws://127.0.0.1:${api.port}/v1/ws?fallback_geo=US-NJ`,
          pid: api.child.pid!,
          inspectPort,
        });
      } finally {
        await api.stop();
      }
    };
    const f = new Fanout(stack, pool, pub, spacingMs, log);

    if (o.parts.includes('fanout')) {
      log(
        `fanout: ${o.clientProcs} client processes, ${o.ticks} ticks ${spacingMs} ms apart (push interval ${pushMs} ms), frame ${frame.length} bytes`,
      );
      // Unmeasured: warms the client processes' JIT, so the first measured phase is not penalized.
      await withRaw(stack, templateFile, (t) => f.leadingEdge(t, Math.min(1_000, ...o.subscribers), 5));
      const idle: Record<Target['label'], number[]> = { raw: [], predictwire: [] };
      for (const n of o.subscribers) {
        const raws: PhaseResult[] = [];
        const pws: PhaseResult[] = [];
        for (let round = 0; round < o.rounds; round++) {
          raws.push(await withRaw(stack, templateFile, (t) => f.leadingEdge(t, n, o.ticks)));
          pws.push(await withApi((t) => f.leadingEdge(t, n, o.ticks)));
        }
        const [raw, pw] = [combine(raws), combine(pws)];
        for (const r of [...raws, ...pws]) idle[r.label].push(r.idleRssKb);
        const ratio = percentile(pw.latenciesMs, 99) / percentile(raw.latenciesMs, 99);
        const lost = (r: PhaseResult) => r.expected - r.delivered;
        const delivered = (r: PhaseResult) =>
          `${fixed((100 * r.delivered) / r.expected, 1)} % (${int(lost(r))} of ${int(r.expected)} lost${r.ticksNeverSent ? `; ${r.ticksNeverSent} ticks reached no client` : ''}${r.closedEarly ? `; ${r.closedEarly} clients dropped` : ''})`;
        out.rows.push(
          {
            area: 'fan-out',
            case: `leading edge, ${int(n)} subscribers (median p99 of ${pw.phases} phases)`,
            baseline: summary(raw),
            predictwire: summary(pw),
            ratio: fixed(ratio),
            target: `p99 ≤ ${P99_TARGET}x`,
            result: ratio <= P99_TARGET && lost(pw) === 0 ? 'pass' : 'FAIL',
          },
          {
            area: 'fan-out',
            case: `delivered, ${int(n)} subscribers`,
            baseline: delivered(raw),
            predictwire: delivered(pw),
            ratio: '',
            target: '0 lost',
            result: lost(pw) === 0 ? 'pass' : 'FAIL',
          },
          {
            area: 'fan-out',
            case: `memory kept per idle socket (RSS growth, after a full GC), ${int(n)} (API_WORKERS=1, V8 flags as deployed)`,
            baseline: `${fixed(raw.rssKbPerSocket, 1)} KiB`,
            predictwire: `${fixed(pw.rssKbPerSocket, 1)} KiB`,
            ratio: fixed(pw.rssKbPerSocket / raw.rssKbPerSocket),
            target: `≤ ${MEMORY_TARGET_KIB} KiB`,
            result: pw.rssKbPerSocket <= MEMORY_TARGET_KIB ? 'pass' : 'FAIL',
          },
        );
        for (const r of [...raws, ...pws]) {
          out.details.push({
            part: 'fanout',
            ...r,
            latenciesMs: undefined,
            first: r.latenciesMs[0],
            p50: percentile(r.latenciesMs, 50),
            p99: percentile(r.latenciesMs, 99),
            max: r.latenciesMs.at(-1),
          });
          log(
            `  ${int(n)} ${r.label}: ${summary(r)}, delivered ${int(r.delivered)} of ${int(r.expected)}, ${fixed(r.rssKbPerSocket, 1)} KiB/socket`,
          );
        }
      }
      // What a process holds before any client: for the API, its geolocation database (both
      // address families), its caches' preallocated slots, and the code of its dependencies.
      const mib = (kb: number[]) => median(kb) / 1024;
      out.rows.push({
        area: 'fan-out',
        case: `RSS of a fresh process before its clients, after a full GC (median of ${idle.predictwire.length} starts)`,
        baseline: `${fixed(mib(idle.raw), 0)} MiB`,
        predictwire: `${fixed(mib(idle.predictwire), 0)} MiB`,
        ratio: fixed(mib(idle.predictwire) / mib(idle.raw)),
        target: 'report',
        result: '',
      });
    }

    if (o.parts.includes('feed')) {
      const n = o.feedSubscribers;
      await stack.startFeed();
      await sleep(2_000);
      log(`feed: simulator feed running, ${int(n)} subscribers, ${o.feedSeconds} s per server`);
      const raw = await withRaw(stack, templateFile, (t) => f.underFeed(t, n, o.feedSeconds));
      const pw = await withApi((t) => f.underFeed(t, n, o.feedSeconds));
      out.rows.push({
        area: 'fan-out',
        case: `simulator feed, tick→client, ${int(n)} subscribers`,
        baseline: summary(raw),
        predictwire: summary(pw),
        ratio: fixed(percentile(pw.latenciesMs, 99) / percentile(raw.latenciesMs, 99)),
        target: 'report',
        result: '',
      });
      for (const r of [raw, pw]) {
        out.details.push({
          part: 'feed',
          ...r,
          latenciesMs: undefined,
          first: r.latenciesMs[0],
          p50: percentile(r.latenciesMs, 50),
          p99: percentile(r.latenciesMs, 99),
          max: r.latenciesMs.at(-1),
        });
        log(
          `  ${r.label}: ${summary(r)}, ${int(r.delivered)} frames matched, ${r.unmatched} unmatched, ${r.closedEarly} dropped`,
        );
      }
    }
  } finally {
    pub.disconnect();
    pool.stop();
    await stack.stop();
  }
  return out;
}
