/**
 * A mixed workload (issue 28 part 5): wrk cycling through up to 10,000 distinct widget URLs
 * (jurisdictions, currencies, limits, display and odds formats, an advertiser) against the same API
 * answering one URL, alternately in one run. Every URL is requested once before measuring. With the
 * data held still, what differs is the per-URL work (query parsing, variant lookup), read beside a
 * raw uWS app replaying the same answers; with the data moving at production intervals, the many
 * URLs also pay for rebuilding and recompressing every variant at each data change, which one URL
 * pays once. Each run also reports the CPU time the server spent per request.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LEAGUES } from '../src/model/index.js';
import { freePort } from '../src/runtime/free-port.js';
import { cpuTimeUs, pinned } from './lib/cpu.js';
import { capture, replayHeaders } from './lib/http-capture.js';
import { spawnTs, waitForLine } from './lib/procs.js';
import { BROWSER_AE, replayKey, splitPath, type ReplayEntry } from './lib/replay.js';
import type { BenchOptions } from './lib/options.js';
import { BENCH_ADVERTISER, startStack } from './lib/stack.js';
import { median, roundSpread } from './lib/stats.js';
import { fixed, int, type Row } from './lib/table.js';
import { parseWrk, type WrkResult } from './lib/wrk.js';

const SERVER_CPU = 0;
const LOAD_CPU = 1;
/** Issue 40's targets: the many-URL rate against the one-URL rate, per stack. */
const TARGET = { still: 0.9, moving: 0.85 } as const;
const MAX_URLS = 10_000;
const GEOS = [
  'US-NJ',
  'US-NY',
  'US-PA',
  'US-MI',
  'US-IL',
  'US-TX',
  'US-CA',
  'CA-ON',
  'CA-QC',
  'GB',
  'IE',
  'DE',
  'FR',
  'ES',
  'IT',
  'NL',
  'SE',
  'BR',
  'MX',
  'JP',
  'AU',
  'IN',
  'ZA',
  'NG',
];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'BRL', 'MXN', 'JPY', 'CHF', 'INR'];

export interface MixedResult {
  rows: Row[];
  details: unknown[];
}

type Log = (line: string) => void;

/** Distinct widget paths over every dimension a page can choose, at most MAX_URLS. */
function mixedPaths(slugs: string[], leagues: string[]): string[] {
  const adv = ['', `&advertiser_id=${BENCH_ADVERTISER}`];
  const out: string[] = [];
  for (const geo of GEOS) {
    for (const a of adv) {
      for (const asset of ['BTC', 'ETH'])
        for (const h of [5, 15])
          out.push(`/v1/widgets/live-market?asset=${asset}&horizon_minutes=${h}&fallback_geo=${geo}${a}`);
      for (const league of leagues)
        for (const f of ['american', 'decimal', 'fractional'])
          out.push(`/v1/widgets/sportsbook?league=${league}&odds_format=${f}&fallback_geo=${geo}${a}`);
      for (const slug of slugs)
        for (const f of ['cents', 'implied_pct', 'decimal'])
          out.push(`/v1/widgets/event?slug=${slug}&display_format=${f}&fallback_geo=${geo}${a}`);
    }
    // The broad widget's bodies stay within the payload cache's 5,000 per kind.
    for (const currency of CURRENCIES)
      for (let limit = 1; limit <= 20; limit++)
        out.push(`/v1/widgets/broad?limit=${limit}&currency=${currency}&fallback_geo=${geo}`);
  }
  return out.slice(0, MAX_URLS);
}

/** A wrk script cycling through `paths`, as a browser asks (Accept-Encoding). */
function cyclingScript(paths: string[]): string {
  const list = paths.map((p) => JSON.stringify(p)).join(',\n');
  return `local paths = {\n${list}\n}\nlocal i = 0\nwrk.headers["Accept-Encoding"] = "${BROWSER_AE}"\nfunction request()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`;
}

/** The median CPU time the server spent per request over `runs`. */
const cpu = (runs: Array<{ cpuUsPerRequest: number }>) =>
  `${median(runs.map((r) => r.cpuUsPerRequest)).toFixed(1)} µs CPU`;

/** Each run's CPU per request and, for the API, bodies built a second: "15.2 µs · 690 builds/s". */
const perRun = (runs: MixedRun[]) =>
  runs
    .map(
      (r) =>
        `${r.cpuUsPerRequest.toFixed(1)} µs${r.buildsPerSecond === undefined ? '' : ` · ${int(r.buildsPerSecond)} builds/s`}`,
    )
    .join(', ');

/** A wrk run with the CPU time the server spent per request and, for the API, the bodies it built a second. */
type MixedRun = WrkResult & { cpuUsPerRequest: number; buildsPerSecond?: number };

/** The server under load: its pid (for its CPU time) and, for the API, its count of bodies built so far. */
interface Server {
  base: string;
  pid: number | undefined;
  builds?: () => Promise<number>;
}

/** A wrk run of a script file against `server`. */
async function runMixed(server: Server, file: string, o: BenchOptions): Promise<MixedRun> {
  const { pid } = server;
  // Unmeasured first: the variants whose data changed while the other script ran are rebuilt now,
  // so the measured run pays for the changes during it, as steady traffic does (without this, each
  // many-URL run of the data-moving stack paid for three refreshes in 10 s instead of two).
  wrk(server.base, file, o.connections, WARM_SECONDS);
  const buildsBefore = await server.builds?.();
  const before = pid === undefined ? Number.NaN : cpuTimeUs(pid);
  const run = wrk(server.base, file, o.connections, o.seconds);
  const result = parseWrk(run.stdout);
  if (!Number.isFinite(result.rps)) throw new Error(`mixed: wrk printed no result:\n${run.stdout}${run.stderr}`);
  const cpuUsPerRequest = pid === undefined ? Number.NaN : (cpuTimeUs(pid) - before) / result.requests;
  const buildsAfter = await server.builds?.();
  const buildsPerSecond =
    buildsBefore === undefined || buildsAfter === undefined ? undefined : (buildsAfter - buildsBefore) / o.seconds;
  return { ...result, cpuUsPerRequest, buildsPerSecond };
}

/** Seconds of the unmeasured run before each measured one (the many-URL script cycles its list several times a second). */
const WARM_SECONDS = 1;

/** wrk with `file` against `base` on the load generator's core, blocking until it is done. */
function wrk(base: string, file: string, connections: number, seconds: number) {
  const [cmd, ...args] = pinned(LOAD_CPU, [
    'wrk',
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    file,
    base,
  ]);
  return spawnSync(cmd!, args, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
}

/**
 * The API's bodies built so far, every kind, from its admin port's metrics. On a connection of its
 * own: while wrk runs this process is blocked, and the server may close a kept-alive one unseen.
 */
async function buildsSoFar(adminPort: number): Promise<number> {
  const text = await new Promise<string>((resolve, reject) => {
    get(`http://127.0.0.1:${adminPort}/metrics`, { agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => (body += chunk))
        .on('end', () => resolve(body))
        .on('error', reject);
    }).on('error', reject);
  });
  let sum = 0;
  for (const m of text.matchAll(/^predictwire_payload_builds_total\{[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
  return sum;
}

/** Seconds of each moving-data run: whole refresh cycles (5 s in production), so each run pays the same rebuilds. */
const MOVING_SECONDS = 10;
/** Data still: at least this many rounds of this many seconds (the one-URL rate moves most between runs). */
const STILL_ROUNDS = 5;
const STILL_SECONDS = 3;

export async function runMixedWorkload(o: BenchOptions, log: Log): Promise<MixedResult> {
  const out: MixedResult = { rows: [], details: [] };
  // Still data first: what serving many URLs costs per request. Then moving data, as in production:
  // that plus rebuilding every variant at each data change.
  const still = await measure(
    out,
    { ...o, rounds: Math.max(o.rounds, STILL_ROUNDS), seconds: Math.max(o.seconds, STILL_SECONDS) },
    log,
    'data still',
    true,
  );
  const moving = await measure(out, { ...o, seconds: Math.max(o.seconds, MOVING_SECONDS) }, log, 'data moving', false);
  // What the origin adds to what that many distinct answers cost any uWS app: each stack's ratio
  // over the raw replay's own (many URLs against one, same URLs, same run).
  if (still.raw !== undefined)
    for (const [label, ratio, target] of [
      ['data still', still.api, TARGET.still],
      ['data moving', moving.api, TARGET.moving],
    ] as const)
      out.rows.push({
        area: 'REST',
        case: `mixed workload, ${label}, over the raw replay's own ratio (${fixed(ratio)} ÷ ${fixed(still.raw)})`,
        baseline: '',
        predictwire: '',
        ratio: fixed(ratio / still.raw),
        target: `≥ ${target}`,
        result: ratio / still.raw >= target ? 'pass' : 'FAIL',
      });
  return out;
}

/** One stack, every URL built once, then wrk alternating the many-URL and one-URL scripts. */
async function measure(
  out: MixedResult,
  o: BenchOptions,
  log: Log,
  label: string,
  stillData: boolean,
): Promise<{ api: number; raw?: number }> {
  const stack = await startStack({ withData: true, backgroundCpus: LOAD_CPU, stillData });
  try {
    const adminPort = await freePort();
    const api = await stack.startApi({ API_WORKERS: '1', ADMIN_PORT: String(adminPort) }, { cpus: SERVER_CPU });
    const catalog = (await (await fetch(`${api.base}/v1/catalog`)).json()) as { events: Array<{ slug: string }> };
    const leagues: string[] = [];
    for (const league of LEAGUES)
      if ((await fetch(`${api.base}/v1/widgets/sportsbook?league=${league}&fallback_geo=US-NJ`)).status === 200)
        leagues.push(league);
    const paths = mixedPaths(
      catalog.events.map((e) => e.slug),
      leagues,
    );
    const server: Server = { base: api.base, pid: api.child.pid, builds: () => buildsSoFar(adminPort) };
    // Every URL once: bodies built, and only 200s (a 404 or 503 would measure something else).
    // With the data still, those first requests are measured against a second pass of the same.
    if (stillData) out.rows.push(await firstHitRow(server, paths, log));
    else await requestEach(api.base, paths);
    const single = '/v1/widgets/broad?limit=5&currency=USD&fallback_geo=US-NJ';
    // Both through the same script (wrk's Lua costs per request): one list of all, one of one.
    const dir = mkdtempSync(join(tmpdir(), 'pw-bench-mixed-'));
    const [manyFile, oneFile] = [join(dir, 'many.lua'), join(dir, 'one.lua')];
    writeFileSync(manyFile, cyclingScript(paths));
    writeFileSync(oneFile, cyclingScript([single]));
    log(`mixed, ${label}: ${paths.length} distinct URLs against one (${single}), ${o.rounds} rounds x ${o.seconds} s`);
    const runs = await alternate(server, oneFile, manyFile, o);
    const raw = stillData ? await rawReplayRow(out, o, log, api.port, paths, single, manyFile, oneFile) : undefined;
    const ratio = report(out, log, label, paths.length, single, runs, stillData ? TARGET.still : TARGET.moving);
    return { api: ratio, raw };
  } finally {
    await stack.stop();
  }
}

/** Requests each of `paths` once, one at a time, as a browser asks; anything but a 200 stops the bench. */
async function requestEach(base: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const res = await fetch(`${base}${path}`, { headers: { 'accept-encoding': BROWSER_AE } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`mixed: ${path} answered ${res.status}`);
  }
}

/** Jurisdictions whose URLs are requested unmeasured before the first hits are: every kind of body gets built and compiled. */
const FIRST_HIT_WARM_GEOS = 2;

/**
 * A fresh API's first request for each URL (a body built, serialized and compressed) against its
 * second (a cached reply), one request at a time from the bench's own client: the API's CPU per
 * request over each pass. The first jurisdictions' URLs go first, unmeasured, so the JIT has seen
 * every builder; the rest (every kind, for 22 jurisdictions) are the first hits measured.
 */
async function firstHitRow(server: Server, paths: readonly string[], log: Log): Promise<Row> {
  const perGeo = Math.ceil(paths.length / GEOS.length);
  const rest = paths.slice(perGeo * FIRST_HIT_WARM_GEOS);
  await requestEach(server.base, paths.slice(0, perGeo * FIRST_HIT_WARM_GEOS));
  const pass = async () => {
    const [cpu0, builds0] = [cpuTimeUs(server.pid!), await server.builds!()];
    await requestEach(server.base, rest);
    const [cpu1, builds1] = [cpuTimeUs(server.pid!), await server.builds!()];
    return { cpuUs: (cpu1 - cpu0) / rest.length, builds: builds1 - builds0 };
  };
  const first = await pass();
  const again = await pass();
  log(
    `  first hits: ${rest.length} URLs, ${first.cpuUs.toFixed(1)} µs CPU a request (${int(first.builds)} builds); again ${again.cpuUs.toFixed(1)} µs (${int(again.builds)} builds)`,
  );
  return {
    area: 'REST',
    case: `first hits, data still: a fresh API's first request for each of ${int(rest.length)} URLs vs its second, one at a time`,
    baseline: `${again.cpuUs.toFixed(1)} µs CPU a request · ${int(again.builds)} builds`,
    predictwire: `${first.cpuUs.toFixed(1)} µs CPU a request · ${int(first.builds)} builds`,
    ratio: fixed(again.cpuUs / first.cpuUs),
    target: 'report',
    result: '',
  };
}

/**
 * The same two scripts against a raw uWS app replaying the API's own answers to every URL and asking
 * for the peer address (bench/raw-replay.ts): what serving that many distinct answers costs an app
 * that does nothing else, so the API's ratio can be read against it. Data still: the answers
 * captured are the ones the API serves.
 */
async function rawReplayRow(
  out: MixedResult,
  o: BenchOptions,
  log: Log,
  apiPort: number,
  paths: string[],
  single: string,
  manyFile: string,
  oneFile: string,
): Promise<number> {
  const entries: ReplayEntry[] = [];
  for (const target of paths) {
    const answer = await capture(apiPort, target, { 'Accept-Encoding': BROWSER_AE });
    const { path, query } = splitPath(target);
    entries.push({
      key: replayKey(path, query, BROWSER_AE),
      status: answer.status,
      headers: replayHeaders(answer),
      bodyBase64: answer.body.toString('base64'),
    });
  }
  if (!paths.includes(single)) throw new Error(`mixed: the single URL ${single} is not among the many`);
  const file = join(mkdtempSync(join(tmpdir(), 'pw-bench-mixed-')), 'replay.json');
  writeFileSync(file, JSON.stringify(entries));
  const port = await freePort();
  const raw = await spawnTs('bench/raw-replay.ts', {}, { cpus: SERVER_CPU, args: [file, String(port), 'peer'] });
  try {
    await waitForLine(raw, 'listening');
    const runs = await alternate({ base: `http://127.0.0.1:${port}`, pid: raw.child.pid }, oneFile, manyFile, o);
    return report(out, log, 'raw replay + peer address of the same answers', paths.length, single, runs);
  } finally {
    await raw.stop();
  }
}

/** One server's runs of both scripts, alternated over `o.rounds`. */
interface Runs {
  one: MixedRun[];
  many: MixedRun[];
}

/** wrk alternating the one-URL and the many-URL script against `server`. */
async function alternate(server: Server, oneFile: string, manyFile: string, o: BenchOptions): Promise<Runs> {
  const runs: Runs = { one: [], many: [] };
  for (let r = 0; r < o.rounds; r++) {
    runs.one.push(await runMixed(server, oneFile, o));
    runs.many.push(await runMixed(server, manyFile, o));
  }
  return runs;
}

/** The table row, details and log line of one server's runs, and their ratio; without `target`, reported only. */
function report(
  out: MixedResult,
  log: Log,
  label: string,
  urls: number,
  single: string,
  { one, many }: Runs,
  target?: number,
): number {
  const [oneRps, manyRps] = [median(one.map((r) => r.rps)), median(many.map((r) => r.rps))];
  const ratio = manyRps / oneRps;
  // Each round's runs are back to back: their ratios spread as the machine allowed.
  const [low, high] = roundSpread(
    one.map((r) => r.rps),
    many.map((r) => r.rps),
  );
  const errors = [...one, ...many].reduce((s, r) => s + r.non2xx + r.socketErrors, 0);
  const verdict = target === undefined ? '' : ratio >= target ? 'pass' : 'FAIL';
  out.rows.push({
    area: 'REST',
    case: `mixed workload, ${label}: ${int(urls)} distinct URLs vs one`,
    baseline: `${int(oneRps)} req/s · ${cpu(one)}`,
    predictwire: `${int(manyRps)} req/s · ${cpu(many)}`,
    ratio: `${fixed(ratio)} (${fixed(low)}-${fixed(high)})`,
    target: target === undefined ? 'report' : `≥ ${target}`,
    result: errors ? `FAIL (${errors} errors)` : verdict,
  });
  out.details.push({ part: 'mixed', data: label, urls, single, one, many });
  log(
    `  ${label}: one URL ${int(oneRps)} req/s (${cpu(one)}), ${urls} URLs ${int(manyRps)} req/s (${cpu(many)}), ratio ${fixed(ratio)}`,
  );
  log(`    each run, one URL: ${perRun(one)}; ${urls} URLs: ${perRun(many)}`);
  return ratio;
}
