/**
 * REST at the limit (issue 13 parts 1-3, issue 28 part 5). Every widget endpoint, uncompressed and
 * as a browser asks (Accept-Encoding: gzip, deflate, br), against two baselines replaying the
 * server's identical answer (bench/raw-replay.ts): the bare replay, and the replay that also asks
 * uWS for the peer address, as the API must for a visitor's jurisdiction. All three alternate in
 * one run: the servers on CPU 0, wrk on CPU 1, Redis, worker and feed on CPU 1 too. The target is
 * against the second baseline; the bare replay is reported. Then req/s with API_WORKERS=1 and 2.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../src/runtime/free-port.js';
import { LEAGUES } from '../src/model/index.js';
import type { ServiceProcess } from '../test/support/service.js';
import { capture, headerOf, replayHeaders, type CapturedResponse } from './lib/http-capture.js';
import type { BenchOptions } from './lib/options.js';
import { cpuTimeUs } from './lib/cpu.js';
import { spawnTs, waitForLine } from './lib/procs.js';
import { BROWSER_AE, replayKey, splitPath, type ReplayEntry } from './lib/replay.js';
import { BENCH_ADVERTISER, startStack, type Stack } from './lib/stack.js';
import { isNoisy, median, NOISE, roundSpread } from './lib/stats.js';
import { fixed, int, type Row, type WireRow } from './lib/table.js';
import { runWrk, type WrkResult } from './lib/wrk.js';

const SERVER_CPU = 0;
const LOAD_CPU = 1;
/** Against the replay that asks for the peer address (the API cannot skip that call). */
const RATIO_TARGET = 0.9;

interface Endpoint {
  name: string;
  path: string;
  headers: Record<string, string>;
}

const ENCODINGS = [
  { label: 'identity', headers: {} },
  { label: 'gzip,br', headers: { 'Accept-Encoding': BROWSER_AE } },
] as const;

const lang = (tag: string) => ({ 'Accept-Language': `${tag},${tag.slice(0, 2)};q=0.9` });
/** Public broad widget: countries and the languages their visitors' browsers send. */
const BROAD_VISITORS: Array<[country: string, language: string]> = [
  ['US-NJ', 'en-US'],
  ['GB', 'en-GB'],
  ['DE', 'de-DE'],
  ['FR', 'fr-FR'],
  ['JP', 'ja-JP'],
];
const LIVE: Array<[asset: string, horizon: number]> = [
  ['BTC', 5],
  ['ETH', 15],
];

export interface RestResult {
  rows: Row[];
  wire: WireRow[];
  details: unknown[];
}

type Log = (line: string) => void;

/** Polls `path` until it answers 200 and `ok(body)`; the last answer. */
async function ready(
  port: number,
  path: string,
  headers: Record<string, string>,
  ok: (body: string) => boolean,
): Promise<CapturedResponse> {
  let last: CapturedResponse | undefined;
  for (let i = 0; i < 150; i++) {
    last = await capture(port, path, headers);
    if (last.statusCode === 200 && ok(last.body.toString())) return last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`GET ${path} never became ready (last: ${last?.status} ${last?.body.toString().slice(0, 300)})`);
}

/** Every widget endpoint, with a real event slug and each league that answers. */
async function endpoints(api: ServiceProcess, apiKey: string): Promise<Endpoint[]> {
  const adv = { 'x-advertiser-id': BENCH_ADVERTISER, 'x-api-key': apiKey };
  const browser = lang('en-US');
  const list = await ready(
    api.port,
    '/advertiser/v1/widgets/events',
    adv,
    (b) => (JSON.parse(b) as { data: { events: string[] } }).data.events.length > 0,
  );
  const slug = (JSON.parse(list.body.toString()) as { data: { events: string[] } }).data.events[0]!;
  const out: Endpoint[] = BROAD_VISITORS.map(([geo, language]) => ({
    name: `broad ${geo} ${language.slice(0, 2)}`,
    path: `/v1/widgets/broad?fallback_geo=${geo}`,
    headers: lang(language),
  }));
  out.push({ name: 'event', path: `/v1/widgets/event?slug=${slug}&fallback_geo=US-NJ`, headers: browser });
  const leagues: string[] = [];
  for (const league of LEAGUES) {
    const res = await capture(api.port, `/v1/widgets/sportsbook?league=${league}&fallback_geo=US-NJ`, browser);
    if (res.statusCode === 200) leagues.push(league);
  }
  for (const league of leagues)
    out.push({
      name: `sportsbook ${league}`,
      path: `/v1/widgets/sportsbook?league=${league}&fallback_geo=US-NJ`,
      headers: browser,
    });
  for (const [asset, h] of LIVE) {
    const path = `/v1/widgets/live-market?asset=${asset}&horizon_minutes=${h}&fallback_geo=US-NJ`;
    await ready(api.port, path, browser, (b) => b.includes('"market_status":"open"'));
    out.push({ name: `live-market ${asset} ${h}`, path, headers: browser });
  }
  out.push(
    { name: 'adv broad', path: '/advertiser/v1/widgets/broad?geo=US-NJ', headers: adv },
    { name: 'adv event', path: `/advertiser/v1/widgets/event?slug=${slug}&geo=US-NJ`, headers: adv },
    {
      name: `adv sportsbook ${leagues[0] ?? 'NBA'}`,
      path: `/advertiser/v1/widgets/sportsbook?league=${leagues[0] ?? 'NBA'}&geo=US-NJ`,
      headers: adv,
    },
    {
      name: 'adv live-market BTC 15',
      path: '/advertiser/v1/widgets/live-market?asset=BTC&horizon_minutes=15&geo=US-NJ',
      headers: adv,
    },
    { name: 'adv events', path: '/advertiser/v1/widgets/events', headers: adv },
    { name: 'adv specific', path: `/advertiser/v1/widgets/specific/${slug}?geo=US`, headers: adv },
  );
  return out;
}

interface Case {
  name: string;
  path: string;
  headers: Record<string, string>;
  answer: CapturedResponse;
}

/** One wrk run, with the CPU time the server (when its pid is known) spent per request. */
type Run = WrkResult & { cpuUsPerRequest?: number };

/** A server under load: its port, and its pid when its CPU time is to be read. */
type Server = { port: number; pid?: number };

/**
 * Alternates wrk runs over `servers` for `rounds`; every run per server (rows show the median).
 * CPU per request moves far less than req/s when something else shares the machine.
 */
function alternate(servers: Server[], c: Pick<Case, 'path' | 'headers'>, o: BenchOptions): Run[][] {
  const runs: Run[][] = servers.map(() => []);
  for (let r = 0; r < o.rounds; r++) {
    servers.forEach((s, i) => {
      const before = s.pid === undefined ? Number.NaN : cpuTimeUs(s.pid);
      const run: Run = runWrk(`http://127.0.0.1:${s.port}${c.path}`, {
        seconds: o.seconds,
        connections: o.connections,
        headers: c.headers,
        cpu: LOAD_CPU,
      });
      if (s.pid !== undefined) run.cpuUsPerRequest = (cpuTimeUs(s.pid) - before) / run.requests;
      runs[i]!.push(run);
    });
  }
  return runs;
}

/**
 * A table row comparing `other` with `base` by median req/s: `target` is the least ratio that
 * passes, or undefined for a figure reported without one.
 */
function ratioRow(area: string, name: string, base: Run[], other: Run[], target?: number): { row: Row; ratio: number } {
  const ratio = median(other.map((r) => r.rps)) / median(base.map((r) => r.rps));
  const bad = failures(base) + failures(other);
  const [low, high] = roundSpread(
    base.map((r) => r.rps),
    other.map((r) => r.rps),
  );
  const row: Row = {
    area,
    case: name,
    baseline: figure(base),
    predictwire: figure(other),
    // The median's ratio, and the least and greatest of the rounds' own ratios.
    ratio: base.length > 1 ? `${fixed(ratio)} (${fixed(low)}-${fixed(high)})` : fixed(ratio),
    target: target === undefined ? 'report' : `≥ ${target}`,
    result: bad ? `FAIL (${bad} errors)` : target === undefined ? '' : ratio >= target ? 'pass' : 'FAIL',
  };
  return { row, ratio };
}

/** "55,685 req/s · 17.1 µs CPU" from the median of each. */
function figure(runs: Run[]): string {
  const cpu = median(runs.map((r) => r.cpuUsPerRequest ?? Number.NaN));
  return `${int(median(runs.map((r) => r.rps)))} req/s${Number.isFinite(cpu) ? ` · ${cpu.toFixed(1)} µs CPU` : ''}`;
}

/** A case measured: every run of each server, and how often it was taken again for noise. */
interface Measured {
  c: Case;
  /** The plain replay's runs: the first case only (what the peer address costs), else none. */
  base: Run[];
  peer: Run[];
  pw: Run[];
  reruns: number;
}

/** The least and greatest per-round ratio of predictwire to the peer-address replay. */
const spreadOf = (m: Measured) =>
  roundSpread(
    m.peer.map((r) => r.rps),
    m.pw.map((r) => r.rps),
  );

/** "raw ... raw + peer ... predictwire ... ratios ..." for the progress log. */
function summary(m: Measured): string {
  const { row } = ratioRow('', '', m.peer, m.pw, RATIO_TARGET);
  const plain = m.base.length > 0 ? ratioRow('', '', m.base, m.pw).row : undefined;
  const raw = plain ? `raw ${plain.baseline}  ` : '';
  return `${raw}raw + peer ${row.baseline}  predictwire ${row.predictwire}  ratio ${plain ? `${plain.ratio} / ` : ''}${row.ratio} ${row.result}`;
}

const failures = (runs: WrkResult[]) => runs.reduce((s, r) => s + r.non2xx + r.socketErrors, 0);

async function ratios(stack: Stack, o: BenchOptions, log: Log, out: RestResult): Promise<void> {
  const api = await stack.startApi({ API_WORKERS: '1' }, { cpus: SERVER_CPU });
  const eps = (await endpoints(api, stack.apiKey)).filter((e) => !o.filter || e.name.includes(o.filter));
  const cases: Case[] = [];
  const entries: ReplayEntry[] = [];
  for (const e of eps) {
    const sizes: Record<string, CapturedResponse> = {};
    for (const [label, ae] of [
      ['identity', undefined],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['browser', BROWSER_AE],
    ] as const) {
      sizes[label] = await capture(api.port, e.path, { ...e.headers, ...(ae ? { 'Accept-Encoding': ae } : {}) });
    }
    out.wire.push({
      endpoint: e.name,
      identity: sizes.identity!.body.length,
      gzip: sizes.gzip!.body.length,
      br: sizes.br!.body.length,
      browserGets: headerOf(sizes.browser!, 'content-encoding') ?? 'identity',
    });
    for (const enc of ENCODINGS) {
      const headers = { ...e.headers, ...enc.headers };
      const answer = await capture(api.port, e.path, headers);
      if (answer.statusCode !== 200)
        throw new Error(`${e.name}: GET ${e.path} answered ${answer.status}: ${answer.body.toString().slice(0, 300)}`);
      const { path, query } = splitPath(e.path);
      const key = replayKey(path, query, 'Accept-Encoding' in headers ? BROWSER_AE : '');
      entries.push({
        key,
        status: answer.status,
        headers: replayHeaders(answer),
        bodyBase64: answer.body.toString('base64'),
      });
      cases.push({ name: `${e.name} · ${enc.label}`, path: e.path, headers, answer });
    }
  }
  const file = join(mkdtempSync(join(tmpdir(), 'pw-bench-')), 'replay.json');
  writeFileSync(file, JSON.stringify(entries));
  const [rawPort, peerPort] = [await freePort(), await freePort()];
  const raw = await spawnTs('bench/raw-replay.ts', {}, { cpus: SERVER_CPU, args: [file, String(rawPort)] });
  const rawPeer = await spawnTs(
    'bench/raw-replay.ts',
    {},
    { cpus: SERVER_CPU, args: [file, String(peerPort), 'peer'] },
  );
  const rawServer: Server = { port: rawPort, pid: raw.child.pid };
  const peerServer: Server = { port: peerPort, pid: rawPeer.child.pid };
  try {
    await Promise.all([waitForLine(raw, 'listening'), waitForLine(rawPeer, 'listening')]);
    // The baseline must answer exactly what it captured (uWS's own Date and mark aside).
    for (const c of cases) {
      const replayed = await capture(rawPort, c.path, c.headers);
      if (
        !replayed.body.equals(c.answer.body) ||
        JSON.stringify(replayHeaders(replayed)) !== JSON.stringify(replayHeaders(c.answer)) ||
        replayed.status !== c.answer.status
      ) {
        throw new Error(`the raw replay of ${c.name} differs from the server's answer`);
      }
    }
    log(`rest: ${cases.length} cases, ${o.rounds} rounds x ${o.seconds} s per server, wrk -t1 -c${o.connections}`);
    let peerCost: Row | undefined;
    // Unmeasured, once: every case in turn, so the JIT has seen every route and coding before any
    // is measured, as in a server answering all widgets at once: every row then runs against the
    // same optimized code, not code still specialized for the routes measured so far.
    for (const c of cases)
      runWrk(`http://127.0.0.1:${api.port}${c.path}`, {
        seconds: 1,
        connections: o.connections,
        headers: c.headers,
        cpu: LOAD_CPU,
      });
    /**
     * One case: its variant made hot again (unmeasured), then the servers alternated: the API and
     * the peer-address replay every row is judged against, and for the first case the plain replay
     * too, for what the peer address costs (the same for every case; a third server on every row
     * would add a third to the part's time).
     */
    const measure = (c: Case): Measured => {
      runWrk(`http://127.0.0.1:${api.port}${c.path}`, {
        seconds: 1,
        connections: o.connections,
        headers: c.headers,
        cpu: LOAD_CPU,
      });
      const apiServer = { port: api.port, pid: api.child.pid };
      if (c !== cases[0]) {
        const [peer, pw] = alternate([peerServer, apiServer], c, o);
        return { c, base: [], peer: peer!, pw: pw!, reruns: 0 };
      }
      const [base, peer, pw] = alternate([rawServer, peerServer, apiServer], c, o);
      return { c, base: base!, peer: peer!, pw: pw!, reruns: 0 };
    };
    const measured = cases.map((c) => {
      const m = measure(c);
      log(`  ${c.name}: ${summary(m)}`);
      return m;
    });
    // Rows that met a busy machine are taken again (at most NOISE.retries times), keeping the
    // attempt whose rounds agree best; the table names every row taken again.
    const cpuOf = (runs: Run[]) => median(runs.map((r) => r.cpuUsPerRequest ?? Number.NaN));
    const runCpu = { peer: median(measured.map((m) => cpuOf(m.peer))), pw: median(measured.map((m) => cpuOf(m.pw))) };
    const over = (m: Measured) => Math.max(cpuOf(m.peer) / runCpu.peer, cpuOf(m.pw) / runCpu.pw);
    const ratioOf = (m: Measured) => median(m.pw.map((r) => r.rps)) / median(m.peer.map((r) => r.rps));
    const width = (m: Measured) => {
      const [low, high] = spreadOf(m);
      return high / low;
    };
    for (const m of measured) {
      while (m.reruns < NOISE.retries && isNoisy(spreadOf(m), over(m), ratioOf(m), RATIO_TARGET)) {
        const again = measure(m.c);
        m.reruns += 1;
        if (width(again) < width(m)) Object.assign(m, { base: again.base, peer: again.peer, pw: again.pw });
        log(`  ${m.c.name}: re-run ${m.reruns} (${summary(again)})`);
      }
    }
    for (const { c, base, peer, pw, reruns } of measured) {
      const { row } = ratioRow('REST', `${c.name} (vs replay + peer address)`, peer, pw, RATIO_TARGET);
      if (reruns > 0) row.result += ` (re-run ${reruns}x)`;
      if (base.length > 0) out.rows.push(ratioRow('REST', `${c.name} (vs replay)`, base, pw).row);
      out.rows.push(row);
      out.details.push({
        part: 'rest',
        case: c.name,
        path: c.path,
        headers: { ...c.headers, ...('x-api-key' in c.headers ? { 'x-api-key': '(redacted)' } : {}) },
        bodyBytes: c.answer.body.length,
        reruns,
        raw: base,
        rawWithPeerAddress: peer,
        predictwire: pw,
      });
      if (c === cases[0]) {
        // What knowing the client costs a raw uWS app, from the same runs.
        const cost = ratioRow(
          'REST',
          `peer address alone (${c.name}): raw replay + getRemoteAddress() vs raw replay`,
          base,
          peer,
        );
        peerCost = cost.row;
      }
    }
    if (peerCost) out.rows.push(peerCost);
  } finally {
    await Promise.all([raw.stop(), rawPeer.stop(), api.stop()]);
  }
}

/** req/s of one API with API_WORKERS=1 against one with 2, both unpinned, alternately. */
async function cores(stack: Stack, o: BenchOptions, log: Log, out: RestResult): Promise<void> {
  const [one, two] = [await stack.startApi({ API_WORKERS: '1' }), await stack.startApi({ API_WORKERS: '2' })];
  try {
    const browser = lang('en-US');
    const cases = [
      { name: 'broad US', path: '/v1/widgets/broad?fallback_geo=US', headers: browser },
      {
        name: 'live-market BTC 5',
        path: '/v1/widgets/live-market?asset=BTC&horizon_minutes=5&fallback_geo=US',
        headers: browser,
      },
    ];
    log(`cores: API_WORKERS=1 vs 2, server unpinned, wrk -t1 on CPU ${LOAD_CPU}`);
    for (const c of cases) {
      for (const api of [one, two]) {
        await ready(api.port, c.path, c.headers, () => true);
        runWrk(`http://127.0.0.1:${api.port}${c.path}`, {
          seconds: 1,
          connections: o.connections,
          headers: c.headers,
          cpu: LOAD_CPU,
        });
      }
      const [a, b] = alternate([one, two], c, o);
      const { row } = ratioRow('cores', `${c.name}: API_WORKERS 2 vs 1`, a!, b!);
      out.rows.push(row);
      out.details.push({ part: 'cores', case: c.name, workers1: a, workers2: b });
      log(`  ${c.name}: 1 worker ${row.baseline}  2 workers ${row.predictwire}`);
    }
  } finally {
    await Promise.all([one.stop(), two.stop()]);
  }
}

/** The REST parts selected in `o` (rest: ratios and bytes; cores: 1 vs 2 workers). */
export async function runRest(o: BenchOptions, log: Log): Promise<RestResult> {
  const out: RestResult = { rows: [], wire: [], details: [] };
  const stack = await startStack({ withData: true, backgroundCpus: LOAD_CPU });
  try {
    if (o.parts.includes('rest')) await ratios(stack, o, log, out);
    if (o.parts.includes('cores')) await cores(stack, o, log, out);
  } finally {
    await stack.stop();
  }
  return out;
}
