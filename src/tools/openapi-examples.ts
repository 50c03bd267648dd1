/**
 * `npm run openapi:examples`: runs the service on simulator data (a private redis-server, the
 * worker, the price feed and an API process), asks every endpoint whose 200 has a JSON or CSV body
 * once, and writes the answers to src/generated/openapi-examples.json, which the OpenAPI document
 * shows as each operation's example. test/unit/openapi-examples.test.ts checks the file covers
 * every such operation and validates against the document.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { AdvertiserKeys } from '../auth/advertiser-keys.js';
import { PostbackSecrets, signPostback } from '../auth/postback-secrets.js';
import { operatorSites } from '../catalog/operator-sites.js';
import { operatorById } from '../catalog/operators.js';
import { clickKey } from '../tracking/click-ids.js';
import { clickIdParam } from '../tracking/click-links.js';
import { loadConfig } from '../config.js';
import { windowAt } from '../live/window.js';
import { strikeKey, ticksChannel } from '../store/keys.js';
import { EXAMPLES_FILE, type OpenApiExamples } from '../http/openapi-examples.js';
import { startPrivateRedis } from '../runtime/private-redis.js';
import { freePort } from '../runtime/free-port.js';
import { stopChild } from '../runtime/stop-child.js';
import { monotonicClock, systemClock } from '../model/clock.js';

const root = resolve(import.meta.dirname, '../..');
const ADVERTISER = 'example-advertiser';
/** From loopback the address gives no country: New Jersey stands in, where every kind of operator may be listed. */
const GEO = 'US-NJ';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';

/** What the examples need of the running service: its catalog, to name a real event and league. */
interface Catalog {
  events: Array<{ slug: string }>;
  leagues: Array<{ league: string; upcoming: unknown[] }>;
}

/**
 * The request made for each operation (by operationId): path and query, and whether it takes the
 * advertiser's key. Every operation whose 200 has a JSON or CSV body is here (the unit test checks).
 * The postback's query is signed at capture time, for a click made then.
 */
export function exampleRequests(c: Catalog): Record<string, { path: string; advertiser?: boolean; accept?: string }> {
  const slug = c.events[0]!.slug;
  const league = c.leagues.find((l) => l.upcoming.length > 0)!.league;
  const pub = `fallback_geo=${GEO}`;
  const adv = `geo=${GEO}`;
  return {
    getBroadWidget: { path: `/v1/widgets/broad?limit=3&${pub}` },
    getEventWidget: { path: `/v1/widgets/event?slug=${slug}&${pub}` },
    getSportsbookWidget: { path: `/v1/widgets/sportsbook?league=${league}&${pub}` },
    getLiveMarketWidget: { path: `/v1/widgets/live-market?asset=BTC&horizon_minutes=5&${pub}` },
    getAdvertiserBroadWidget: { path: `/advertiser/v1/widgets/broad?limit=3&${adv}`, advertiser: true },
    getAdvertiserEventWidget: { path: `/advertiser/v1/widgets/event?slug=${slug}&${adv}`, advertiser: true },
    getAdvertiserSportsbookWidget: {
      path: `/advertiser/v1/widgets/sportsbook?league=${league}&${adv}`,
      advertiser: true,
    },
    getAdvertiserLiveMarketWidget: {
      path: `/advertiser/v1/widgets/live-market?asset=BTC&horizon_minutes=5&${adv}`,
      advertiser: true,
    },
    getEventHistory: { path: `/v1/widgets/event/history?slug=${slug}&range=1d&${pub}` },
    getAdvertiserEventList: { path: '/advertiser/v1/widgets/events', advertiser: true },
    getAdvertiserSpecificEvent: { path: `/advertiser/v1/widgets/specific/${slug}?limit=2&${adv}`, advertiser: true },
    getAdvertiserReport: { path: '/advertiser/v1/reports?group_by=operator', advertiser: true },
    'getAdvertiserReport:text/csv': {
      path: '/advertiser/v1/reports?group_by=operator',
      advertiser: true,
      accept: 'text/csv',
    },
    getCatalog: { path: '/v1/catalog' },
    getCompliance: { path: `/v1/compliance?jurisdiction=${GEO}` },
    receivePostback: { path: '/v1/postback' },
    getHealth: { path: '/healthz' },
    getReadiness: { path: '/readyz' },
  };
}

function start(entry: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(root, entry)], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = monotonicClock() + timeoutMs;
  while (monotonicClock() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Runs the service, captures one answer per operation, stops everything. */
export async function captureExamples(): Promise<OpenApiExamples> {
  const redis = await startPrivateRedis();
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'warn',
    REDIS_URL: redis.url,
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_PORT: '0',
    WORKER_HEALTH_PORT: '0',
    FEED_HEALTH_PORT: '0',
    REFRESH_EVENTS_SECONDS: '1',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'pw-examples-')),
  };
  const client = new Redis(redis.url);
  const ticks = new Redis(redis.url);
  const children = ['workers/main.ts', 'workers/feed/main.ts', 'src/main.ts'].map((entry) => start(entry, env));
  const base = `http://127.0.0.1:${port}`;
  try {
    const apiKey = await new AdvertiserKeys(client, loadConfig(env).apiKeyPepper).create(
      ADVERTISER,
      'Example advertiser',
      new Date(systemClock()),
    );
    // The window's strike as an API process that saw its start would claim it (SET NX), so the live example is priced.
    const firstTick = new Promise<number>((done) => {
      void ticks.subscribe(ticksChannel('BTC'));
      ticks.once('message', (_channel: string, body: string) => done((JSON.parse(body) as { price: number }).price));
    });
    const w = windowAt(systemClock(), 5);
    await client.set(strikeKey('BTC', 5, w.startMs / 1000), String(await firstTick), 'EX', 900, 'NX');
    await until('readiness', async () => ((await fetch(`${base}/readyz`)).status === 200 ? true : undefined));
    const catalog = (await (await fetch(`${base}/v1/catalog`)).json()) as Catalog;
    const requests = exampleRequests(catalog);
    const auth = { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey };
    // A visitor sees the advertiser's broad widget, views it and follows a link, so the report has a row.
    const broad = (await (
      await fetch(`${base}/v1/widgets/broad?limit=3&fallback_geo=${GEO}&advertiser_id=${ADVERTISER}`)
    ).json()) as {
      impression_url: string;
      operators: Array<{ routing: { web_url: string } }>;
    };
    const visitor = { 'user-agent': BROWSER };
    await fetch(broad.impression_url.replace(/^https?:\/\/[^/]+/, base), { headers: visitor });
    const link = new URL(broad.operators[0]!.routing.web_url);
    const clicked = await fetch(`${base}${link.pathname}${link.search}`, { headers: visitor, redirect: 'manual' });
    // The operator's server reports that the click registered and deposited, signed with its secret.
    const operator = link.searchParams.get('o')!;
    const clickId = new URL(clicked.headers.get('location')!).searchParams.get(
      clickIdParam(operatorSites(operatorById(operator)!), link.searchParams.get('c') ?? undefined)!,
    )!;
    const secret = await new PostbackSecrets(client, loadConfig(env).apiKeyPepper).create(
      operator,
      new Date(systemClock()),
    );
    const postback = (event: string, eventId: string, money = '') =>
      `/v1/postback?${signPostback(secret, `operator=${operator}&click_id=${clickId}&event=${event}&event_id=${eventId}${money}`)}`;
    await until('the click written', async () => ((await client.exists(clickKey(clickId))) === 1 ? true : undefined));
    for (const path of [
      postback('registration', 'reg-10001'),
      postback('first_deposit', 'ftd-10001', '&amount=50.00&commission=20.00&currency=USD'),
    ]) {
      if ((await fetch(`${base}${path}`)).status !== 200) throw new Error(`${path} was not counted`);
    }
    const slug = catalog.events[0]!.slug;
    await until('a history point', async () => {
      const h = (await (await fetch(`${base}/v1/widgets/event/history?slug=${slug}&fallback_geo=${GEO}`)).json()) as {
        timestamps: unknown[];
      };
      return h.timestamps.length > 0 ? true : undefined;
    });
    await until(
      'a priced live window with some of its path',
      async () => {
        const l = (await (await fetch(`${base}/v1/widgets/live-market?fallback_geo=${GEO}`)).json()) as {
          market_status?: string;
          spot_path?: unknown[];
        };
        return l.market_status === 'open' && (l.spot_path?.length ?? 0) >= 6 ? true : undefined;
      },
      120_000,
    );
    await until('counted report rows', async () => {
      const r = (await (await fetch(`${base}${requests.getAdvertiserReport!.path}`, { headers: auth })).json()) as {
        rows: unknown[];
      };
      return r.rows.length > 0 ? true : undefined;
    });
    requests.receivePostback!.path = postback('deposit', 'dep-10002', '&amount=25.00&currency=USD');
    const out: OpenApiExamples = {};
    for (const [id, r] of Object.entries(requests)) {
      const res = await fetch(`${base}${r.path}`, {
        headers: { ...(r.advertiser ? auth : {}), ...(r.accept ? { accept: r.accept } : {}) },
      });
      if (res.status !== 200) throw new Error(`${r.path} answered ${res.status}: ${await res.text()}`);
      out[id] = r.accept === 'text/csv' ? await res.text() : await res.json();
    }
    return out;
  } finally {
    ticks.disconnect();
    client.disconnect();
    await Promise.all(children.map((c) => stopChild(c)));
    await redis.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const examples = await captureExamples();
  writeFileSync(EXAMPLES_FILE, `${JSON.stringify(examples, null, 2)}\n`);
  process.stdout.write(`wrote ${EXAMPLES_FILE}\n`);
}
