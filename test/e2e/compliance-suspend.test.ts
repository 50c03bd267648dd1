/**
 * A suspension end to end, on a service with two API workers over real sockets and a real Redis:
 * `npm run compliance -- suspend` withdraws Kalshi from New Jersey, and within 5 seconds no widget
 * kind, WebSocket push or advertiser answer from either worker shows it there while Pennsylvania still
 * does; a click link issued before lands on the neutral page. The suspension survives a restart,
 * `resume` brings Kalshi back, a one-surface suspension drops only its sports lines, and a rules
 * document with a bad row is refused (by the command, and by every process if it reaches Redis)
 * while the service keeps its rules.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import rulesJson from '../../src/catalog/compliance/rules.json' with { type: 'json' };
import { publishRules } from '../../src/catalog/compliance/store.js';
import { freePort } from '../../src/runtime/free-port.js';
import {
  BroadWidgetPayload,
  CatalogPayload,
  EventWidgetPayload,
  LiveMarketPayload,
  SpecificEventPayload,
  SportsbookWidgetPayload,
} from '../../src/widgets/payload-schemas.js';
import type { CompliancePayload } from '../../src/catalog/compliance/matrix.js';
import { answersFromEachWorker, TWO_LOGGED_WORKERS } from '../support/api-workers.js';
import { publishTick, seedStrike } from '../support/live.js';
import { spawnEntry } from '../support/processes.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let env: Record<string, string>;
let worker: ServiceProcess;
let api: ServiceProcess;
let adminPort: number;
let apiKey: string;
let ticks: NodeJS.Timeout;
const ADVERTISER = 'suspend-e2e';
const HERE = 'US-NJ';
const ELSEWHERE = 'US-PA';
/** The wait the issue allows, from the command's return to every process. */
const WITHIN_MS = 5_000;

async function startApi(): Promise<ServiceProcess> {
  const proc = await spawnProcess('src/main.ts', env);
  await waitFor(`${proc.base}/readyz`, (s) => s === 200, proc);
  await vi.waitFor(() => expect(proc.output()).toContain('"msg":"api workers listening"'), {
    timeout: 30_000,
    interval: 100,
  });
  return proc;
}

beforeAll(async () => {
  adminPort = await freePort();
  env = testEnv(redis.url, {
    ...TWO_LOGGED_WORKERS,
    ADMIN_PORT: String(adminPort),
    // One port across the restart: click links name it (PUBLIC_BASE_URL's default).
    PORT: String(await freePort()),
    // The test asks every worker many times over from one address.
    RATE_LIMIT_ADVERTISER: '100000/60',
    RATE_LIMIT_WS_UPGRADE: '1000/60',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '100',
  });
  worker = await spawnProcess('workers/main.ts', env);
  api = await startApi();
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Suspend E2E', new Date());
  // The 15-minute BTC window open with a strike, and ticks all along, so the live market lists Kalshi.
  await seedStrike(redis.client, 'BTC', 15, 97_000);
  ticks = setInterval(() => void publishTick(redis.client, 'BTC', 97_000 + Math.round(Math.random() * 100)), 250);
}, 120_000);

afterAll(async () => {
  clearInterval(ticks);
  await Promise.all([api?.stop(), worker?.stop()]);
});

/** `npm run compliance -- ...args` against this test's Redis; its exit code and output. */
async function compliance(...args: string[]): Promise<{ code: number | null; out: string }> {
  const p = spawnEntry('src/tools/compliance.ts', [...args, '--by', 'e2e-officer'], {
    PATH: process.env.PATH ?? '',
    REDIS_URL: redis.url,
    DATA_DIR: env.DATA_DIR!,
  });
  return { code: await p.exit, out: p.output() };
}

/** An economics event (a Fed decision) Kalshi and Polymarket both quote: in every event widget and the advertiser comparison. */
let slug: string;
async function pickEvent(): Promise<void> {
  const catalog = CatalogPayload.parse(await (await fetch(`${api.base}/v1/catalog`)).json());
  const compared = (await (
    await fetch(`${api.base}/advertiser/v1/widgets/events`, {
      headers: { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey },
    })
  ).json()) as { data: { events: string[] } };
  slug = catalog.events.find((e) => e.category === 'economics' && compared.data.events.includes(e.slug))!.slug;
}

/** Whether each answer of each worker shows Kalshi, per widget kind, for `geo`. */
async function kalshiShown(geo: string): Promise<Record<string, boolean[]>> {
  const headers = { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey };
  const each = async <T>(
    path: string,
    parse: (body: unknown) => T,
    shows: (p: T) => boolean,
    h: Record<string, string> = {},
  ) => {
    const answers = await answersFromEachWorker(api, `${api.base}${path}`, h);
    return [...answers.values()].map((a) => {
      expect(a.status, `${path}: ${a.body}`).toBe(200);
      return shows(parse(JSON.parse(a.body)));
    });
  };
  const broad = (p: BroadWidgetPayload) => p.operators.some((o) => o.operator_name === 'Kalshi');
  const event = (p: EventWidgetPayload) =>
    p.outcomes.some((o) => o.comparison_pool.some((c) => c.operator_id === 'kalshi'));
  const book = (p: SportsbookWidgetPayload) => p.odds_matrix.operators.some((o) => o.name === 'Kalshi');
  const live = (p: LiveMarketPayload) => p.providers_pool.some((o) => o.operator_id === 'kalshi');
  return {
    broad: await each(`/v1/widgets/broad?limit=50&fallback_geo=${geo}`, (b) => BroadWidgetPayload.parse(b), broad),
    event: await each(`/v1/widgets/event?slug=${slug}&fallback_geo=${geo}`, (b) => EventWidgetPayload.parse(b), event),
    sportsbook: await each(
      `/v1/widgets/sportsbook?league=NBA&fallback_geo=${geo}`,
      (b) => SportsbookWidgetPayload.parse(b),
      book,
    ),
    live: await each(
      `/v1/widgets/live-market?asset=BTC&horizon_minutes=15&fallback_geo=${geo}`,
      (b) => LiveMarketPayload.parse(b),
      live,
    ),
    advertiserBroad: await each(
      `/advertiser/v1/widgets/broad?limit=50&geo=${geo}`,
      (b) => BroadWidgetPayload.parse(b),
      broad,
      headers,
    ),
    advertiserEvent: await each(
      `/advertiser/v1/widgets/event?slug=${slug}&geo=${geo}`,
      (b) => EventWidgetPayload.parse(b),
      event,
      headers,
    ),
    advertiserSportsbook: await each(
      `/advertiser/v1/widgets/sportsbook?league=NBA&geo=${geo}`,
      (b) => SportsbookWidgetPayload.parse(b),
      book,
      headers,
    ),
    advertiserLive: await each(
      `/advertiser/v1/widgets/live-market?asset=BTC&horizon_minutes=15&geo=${geo}`,
      (b) => LiveMarketPayload.parse(b),
      live,
      headers,
    ),
    advertiserComparison: await each(
      `/advertiser/v1/widgets/specific/${slug}?geo=${geo}`,
      (b) => SpecificEventPayload.parse(b),
      (p) => p.data.operators.operatorA.allowed_in_geo,
      headers,
    ),
  };
}
const everywhere = (value: boolean) =>
  expect.objectContaining(
    Object.fromEntries(
      [
        'broad',
        'event',
        'sportsbook',
        'live',
        'advertiserBroad',
        'advertiserEvent',
        'advertiserSportsbook',
        'advertiserLive',
        'advertiserComparison',
      ].map((k) => [k, [value, value]]),
    ),
  );

/** WebSocket subscribers in New Jersey on both workers, keeping the last frame of each topic. */
interface Subscriber {
  ws: WebSocket;
  last: Map<string, { data: unknown }>;
}
const metrics = async () => (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
const perWorker = (text: string) =>
  [...text.matchAll(/^predictwire_api_worker_ws_connections\{worker="(\d+)"\} (\d+)$/gm)]
    .filter((m) => Number(m[2]) > 0)
    .map((m) => m[1]);

async function subscribers(topics: string[]): Promise<Subscriber[]> {
  const subs: Subscriber[] = [];
  // Open connections until both workers hold some (the kernel picks the worker; bounded).
  while (subs.length < 40 && (subs.length < 4 || new Set(perWorker(await metrics())).size < 2)) {
    const ws = new WebSocket(`${api.base.replace('http', 'ws')}/v1/ws?fallback_geo=${HERE}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const sub: Subscriber = { ws, last: new Map() };
    ws.on('message', (d) => {
      const frame = JSON.parse(d.toString()) as { topic?: string; data?: unknown };
      if (frame.topic) sub.last.set(frame.topic, { data: frame.data });
    });
    for (const topic of topics) ws.send(JSON.stringify({ op: 'subscribe', topic }));
    subs.push(sub);
    await vi.waitFor(() => expect(sub.last.size).toBe(topics.length), { timeout: 5_000, interval: 20 });
  }
  expect(new Set(perWorker(await metrics())).size).toBe(2);
  return subs;
}
const pushedKalshi = (subs: Subscriber[], eventTopic: string) =>
  subs.map((s) => [
    EventWidgetPayload.parse(s.last.get(eventTopic)!.data).outcomes.some((o) =>
      o.comparison_pool.some((c) => c.operator_id === 'kalshi'),
    ),
    LiveMarketPayload.parse(s.last.get('live-market:BTC:15')!.data).providers_pool.some(
      (p) => p.operator_id === 'kalshi',
    ),
  ]);

/** Polls `probe` until `accept`, within `ms` of `since`; fails with the last value otherwise. */
async function within<T>(
  since: number,
  ms: number,
  probe: () => Promise<T> | T,
  accept: (v: T) => boolean,
): Promise<T> {
  let last: T;
  do {
    last = await probe();
    if (accept(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  } while (Date.now() - since < ms);
  throw new Error(`not within ${ms} ms: ${JSON.stringify(last)}`);
}

describe('suspend and resume, on every API process', () => {
  it('withdraws Kalshi from New Jersey within 5 seconds everywhere, holds across a restart, and resume brings it back', async () => {
    await pickEvent();
    const eventTopic = `event:${slug}`;
    // Before: Kalshi everywhere in New Jersey, on both workers, over REST and WebSocket.
    await vi.waitFor(async () => expect(await kalshiShown(HERE)).toEqual(everywhere(true)), {
      timeout: 15_000,
      interval: 200,
    });
    const subs = await subscribers([eventTopic, 'live-market:BTC:15']);
    expect(pushedKalshi(subs, eventTopic).flat().every(Boolean)).toBe(true);
    // A click link issued now, for New Jersey.
    const before = EventWidgetPayload.parse(
      await (await fetch(`${api.base}/v1/widgets/event?slug=${slug}&fallback_geo=${HERE}`)).json(),
    );
    const link = before.outcomes.flatMap((o) => o.comparison_pool).find((c) => c.operator_id === 'kalshi')!.deep_link;
    const landing = await answersFromEachWorker(api, link, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
    });
    for (const a of landing.values()) expect([a.status, new URL(a.location!).hostname]).toEqual([302, 'kalshi.com']);

    const suspended = await compliance(
      'suspend',
      '--operator',
      'kalshi',
      '--jurisdiction',
      HERE,
      '--reason',
      'Court order 2026-CV-123',
    );
    expect(suspended, suspended.out).toMatchObject({ code: 0 });
    const at = Date.now();
    // Within 5 seconds: no widget kind, advertiser answer or push from either worker shows Kalshi there.
    await within(
      at,
      WITHIN_MS,
      () => kalshiShown(HERE),
      (v) =>
        Object.values(v)
          .flat()
          .every((x) => !x),
    );
    await within(
      at,
      WITHIN_MS,
      () => pushedKalshi(subs, eventTopic),
      (v) => v.flat().every((x) => !x),
    );
    // The old link lands on the neutral page on both workers, never on the operator.
    const after = await answersFromEachWorker(api, link, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
    });
    for (const a of after.values()) {
      expect([a.status, a.location]).toEqual([200, undefined]);
      expect(a.body).toContain('No longer available here');
      expect(a.body).not.toMatch(/kalshi/i);
    }
    // Pennsylvania is untouched.
    expect(await kalshiShown(ELSEWHERE)).toEqual(everywhere(true));
    for (const s of subs) s.ws.close();

    // list shows who, when and why.
    const listed = await compliance('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/kalshi {2}US-NJ {2}every surface {2}since \S+ by e2e-officer: Court order 2026-CV-123/);
    expect(listed.out).toMatch(/suspend {2}kalshi US-NJ every surface {2}by e2e-officer: Court order 2026-CV-123/);

    // A restart of the API keeps the suspension.
    await api.stop();
    api = await startApi();
    expect(await kalshiShown(HERE)).toEqual(everywhere(false));
    expect(await kalshiShown(ELSEWHERE)).toEqual(everywhere(true));

    const resumed = await compliance(
      'resume',
      '--operator',
      'kalshi',
      '--jurisdiction',
      HERE,
      '--reason',
      'Order stayed on appeal',
    );
    expect(resumed, resumed.out).toMatchObject({ code: 0 });
    const back = Date.now();
    await within(
      back,
      WITHIN_MS,
      () => kalshiShown(HERE),
      (v) => Object.values(v).flat().every(Boolean),
    );
    const relanded = await answersFromEachWorker(api, link, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0',
    });
    for (const a of relanded.values()) expect(a.status).toBe(302);
  }, 180_000);

  it("a suspension of the sports surface drops Kalshi's sports lines and keeps its Fed contracts", async () => {
    const done = await compliance(
      'suspend',
      '--operator',
      'kalshi',
      '--jurisdiction',
      HERE,
      '--surface',
      'sports',
      '--reason',
      'Sports contracts enjoined',
    );
    expect(done, done.out).toMatchObject({ code: 0 });
    const at = Date.now();
    await within(
      at,
      WITHIN_MS,
      () => kalshiShown(HERE),
      (v) => v.sportsbook!.every((x) => !x) && v.broad!.every((x) => !x),
    );
    const now = await kalshiShown(HERE);
    // the economics event and the crypto live market keep Kalshi; the broad widget presents it as a whole, so not there
    expect([now.event, now.live, now.advertiserComparison, now.advertiserSportsbook]).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [false, false],
    ]);
    expect(
      (
        await compliance(
          'resume',
          '--operator',
          'kalshi',
          '--jurisdiction',
          HERE,
          '--surface',
          'sports',
          '--reason',
          'lifted',
        )
      ).code,
    ).toBe(0);
  }, 120_000);
});

describe('a rules document with a bad row', () => {
  const bad = {
    ...rulesJson,
    revision: rulesJson.revision + 1,
    allow: rulesJson.allow.map((r) => (r.operator === 'betfair' ? { ...r, jurisdictions: ['GB', 'UK'] } : r)),
  };
  const at = rulesJson.allow.findIndex((r) => r.operator === 'betfair');
  const problem = `row ${rulesJson.allow[at]!.id} (allow[${at}]) jurisdictions.1: not a country code or a subdivision of US or CA`;

  it('is refused by the command, naming the row, and nothing is published', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pw-rules-')), 'rules.json');
    writeFileSync(file, JSON.stringify(bad));
    const result = await compliance('publish', file, '--reason', 'a typo');
    expect(result.code).toBe(1);
    expect(result.out).toContain(problem);
    expect(await redis.client.get('pw:compliance:rules')).toBeNull();
  }, 60_000);

  it('that reaches Redis anyway is refused by every process, which keeps serving its rules and says so', async () => {
    const client = new Redis(redis.url);
    try {
      await publishRules(
        client,
        JSON.stringify(bad),
        bad.revision,
        'someone',
        'written around the command',
        new Date().toISOString(),
      );
    } finally {
      client.disconnect();
    }
    await vi.waitFor(
      async () => {
        const answers = await answersFromEachWorker(api, `${api.base}/v1/compliance?jurisdiction=GB`);
        for (const a of answers.values()) {
          const body = JSON.parse(a.body) as CompliancePayload;
          expect(body.refused).toEqual({ revision: bad.revision, problems: [problem] });
          expect(body.rules_revision).toBe(rulesJson.revision);
        }
      },
      { timeout: WITHIN_MS, interval: 100 },
    );
    expect(api.output()).toContain(problem);
    // Still serving the rules in force: Betfair in GB.
    const gb = BroadWidgetPayload.parse(
      await (await fetch(`${api.base}/v1/widgets/broad?limit=50&fallback_geo=GB`)).json(),
    );
    expect(gb.operators.map((o) => o.operator_name)).toContain('Betfair Exchange');
  }, 60_000);
});
