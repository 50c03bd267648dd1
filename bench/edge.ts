/**
 * The edge (issue 28 part 3): deploy/nginx-edge.conf in front of one API (CDN_GEO=cloudflare,
 * TRUST_PROXY=127.0.0.1), wrk sending a fixed mix over ten jurisdictions (Cloudflare's geo headers,
 * as the CDN adds them) and every widget kind, the broad widget in two reader languages. Reports
 * the share answered from the edge's cache and the origin's widget requests a second against the
 * bound the cache headers promise: per variant, one per s-maxage.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { freePort } from '../src/runtime/free-port.js';
import {
  cloudflareHeaders,
  EDGE_JURISDICTIONS,
  hasNginx,
  NGINX,
  originRequests,
  startEdge,
} from '../test/support/edge.js';
import { pinned } from './lib/cpu.js';
import type { BenchOptions } from './lib/options.js';
import { startStack } from './lib/stack.js';
import { fixed, int, type Row } from './lib/table.js';
import { parseWrk } from './lib/wrk.js';

const LOAD_CPU = 1;
const HIT_TARGET = 0.95;
const LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9'];
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';

interface EdgeRequest {
  route: string;
  path: string;
  headers: Record<string, string>;
  variant: string;
}

export interface EdgeResult {
  rows: Row[];
  details: unknown[];
}

type Log = (line: string) => void;

/** The wrk script: cycles through `requests`, counts X-Cache-Status, prints the counts at the end. */
function wrkScript(requests: EdgeRequest[]): string {
  const lua = (s: string) => JSON.stringify(s);
  const list = requests
    .map(
      (r) =>
        `{${lua(r.path)},{${Object.entries(r.headers)
          .map(([k, v]) => `[${lua(k)}]=${lua(v)}`)
          .join(',')}}}`,
    )
    .join(',\n');
  return `local reqs = {\n${list}\n}
local i = 0
hit, stale, updating, miss, other = 0, 0, 0, 0, 0
function request()
  i = i % #reqs + 1
  return wrk.format("GET", reqs[i][1], reqs[i][2])
end
function response(status, headers, body)
  local s = headers["X-Cache-Status"]
  if s == "HIT" then hit = hit + 1 elseif s == "STALE" then stale = stale + 1 elseif s == "UPDATING" then updating = updating + 1
  elseif s == "MISS" or s == "EXPIRED" then miss = miss + 1 else other = other + 1 end
end
local threads = {}
function setup(thread) table.insert(threads, thread) end
function done(summary, latency, requests)
  local t = threads[1]
  io.write(string.format("EDGE %d %d %d %d %d\\n", t:get("hit"), t:get("stale"), t:get("updating"), t:get("miss"), t:get("other")))
end
`;
}

/** Runs the edge part; no rows (and a log line) without nginx. */
export async function runEdge(o: BenchOptions, log: Log): Promise<EdgeResult> {
  const out: EdgeResult = { rows: [], details: [] };
  if (!hasNginx()) {
    log(`edge: skipped, ${NGINX} not found (apt-get install nginx)`);
    return out;
  }
  const stack = await startStack({ withData: true, backgroundCpus: LOAD_CPU });
  const adminPort = await freePort();
  try {
    const api = await stack.startApi({
      TRUST_PROXY: '127.0.0.1',
      CDN_GEO: 'cloudflare',
      ADMIN_PORT: String(adminPort),
      ADMIN_HOST: '127.0.0.1',
    });
    const edge = await startEdge(api.port);
    try {
      const catalog = (await (await fetch(`${api.base}/v1/catalog`)).json()) as { events: Array<{ slug: string }> };
      const kinds: Array<[route: string, path: string]> = [
        ['/v1/widgets/event', `/v1/widgets/event?slug=${catalog.events[0]!.slug}`],
        ['/v1/widgets/sportsbook', '/v1/widgets/sportsbook?league=NBA'],
        ['/v1/widgets/live-market', '/v1/widgets/live-market?asset=BTC&horizon_minutes=15'],
        ['/v1/widgets/broad', '/v1/widgets/broad?limit=5'],
      ];
      const requests: EdgeRequest[] = kinds.flatMap(([route, path]) =>
        EDGE_JURISDICTIONS.flatMap((j) =>
          (route.endsWith('/broad') ? LANGUAGES : LANGUAGES.slice(0, 1)).map((language) => ({
            route,
            path,
            headers: {
              ...cloudflareHeaders(j),
              'Accept-Language': language,
              'Accept-Encoding': 'gzip, deflate, br',
              'User-Agent': BROWSER,
            },
            variant: `${j.join('-')}|${language}`,
          })),
        ),
      );
      // Every variant once (the fill), and each kind's s-maxage from its answer.
      const sMaxAge = new Map<string, number>();
      for (const r of requests) {
        const res = await fetch(`${edge.base}${r.path}`, { headers: r.headers });
        if (res.status !== 200) throw new Error(`edge: ${r.path} answered ${res.status}`);
        await res.arrayBuffer();
        sMaxAge.set(r.route, Number(/s-maxage=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]));
      }
      const file = join(mkdtempSync(join(tmpdir(), 'pw-bench-edge-')), 'mix.lua');
      writeFileSync(file, wrkScript(requests));
      const seconds = o.seconds * 10;
      log(
        `edge: ${requests.length} variants over ${EDGE_JURISDICTIONS.length} jurisdictions, wrk -t1 -c${o.connections} for ${seconds} s through nginx`,
      );
      const before = await originRequests(`http://127.0.0.1:${adminPort}`);
      const [cmd, ...args] = pinned(LOAD_CPU, [
        'wrk',
        '-t1',
        `-c${o.connections}`,
        `-d${seconds}s`,
        '-s',
        file,
        edge.base,
      ]);
      const run = spawnSync(cmd!, args, { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
      const after = await originRequests(`http://127.0.0.1:${adminPort}`);
      const wrk = parseWrk(run.stdout);
      const counts = /EDGE (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(run.stdout)?.slice(1).map(Number);
      if (!counts || !Number.isFinite(wrk.rps))
        throw new Error(`edge: wrk printed no result:\n${run.stdout}${run.stderr}`);
      const [hit, stale, updating, miss, other] = counts as [number, number, number, number, number];
      const total = hit + stale + updating + miss + other;
      const fromCache = (hit + stale + updating) / total;
      let asked = 0;
      let bound = 0;
      for (const [route] of kinds) {
        asked += (after.get(route) ?? 0) - (before.get(route) ?? 0);
        bound +=
          (requests.filter((r) => r.route === route).length * Math.ceil(seconds / sMaxAge.get(route)!)) / seconds;
      }
      const originRate = asked / seconds;
      out.rows.push(
        {
          area: 'edge',
          case: `answered from the cache (${requests.length} variants, ${int(total)} requests, ${int(wrk.rps)} req/s at the edge)`,
          baseline: '',
          predictwire: `${(fromCache * 100).toFixed(1)} % (hit ${int(hit)}, stale ${int(stale + updating)}, miss ${int(miss)})`,
          ratio: fixed(fromCache),
          target: `≥ ${HIT_TARGET}`,
          result:
            wrk.non2xx + wrk.socketErrors > 0
              ? `FAIL (${wrk.non2xx + wrk.socketErrors} errors)`
              : fromCache >= HIT_TARGET
                ? 'pass'
                : 'FAIL',
        },
        {
          area: 'edge',
          case: 'origin widget requests: measured vs variants ÷ s-maxage',
          baseline: `${originRate.toFixed(1)} req/s`,
          predictwire: `bound ${bound.toFixed(1)} req/s`,
          ratio: fixed(originRate / bound),
          target: '≤ 1',
          result: originRate <= bound ? 'pass' : 'FAIL',
        },
      );
      out.details.push({
        part: 'edge',
        seconds,
        variants: requests.length,
        sMaxAge: Object.fromEntries(sMaxAge),
        counts: { hit, stale, updating, miss, other },
        wrk,
        originByRoute: Object.fromEntries(kinds.map(([r]) => [r, (after.get(r) ?? 0) - (before.get(r) ?? 0)])),
      });
      log(
        `  from the cache ${(fromCache * 100).toFixed(1)} %, origin ${originRate.toFixed(1)} req/s (bound ${bound.toFixed(1)})`,
      );
    } finally {
      await edge.stop();
    }
  } finally {
    await stack.stop();
  }
  return out;
}
