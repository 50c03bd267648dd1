/**
 * Drills of the limits, against real API processes on a real Redis over real sockets: 429s with
 * their headers (clicks over their limit are redirected instead: rotation.test.ts), failed-authentication
 * blocking (never of a key or postback secret that verified from the address; lifted by the CLI's import, rotate and retire), the per-address WebSocket cap and message rate,
 * revocation across processes, request ids, GET bodies refused, and the drain on SIGTERM.
 * Limits are set low here through the same settings an operator uses.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openWebSocket, refusedUpgrade } from '../support/ws-client.js';
import { MAX_MESSAGE_BYTES } from '../../src/transport/ws-server.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { PostbackSecrets, signPostback } from '../../src/auth/postback-secrets.js';
import { loadConfig } from '../../src/config.js';
import { newClickId } from '../../src/tracking/click-ids.js';
import { spawnEntry } from '../support/processes.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const redis = useRedis();
let worker: ServiceProcess;
let api: ServiceProcess;
let other: ServiceProcess;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const ADVERTISER = 'limits-e2e';
let apiKey: string;

beforeAll(async () => {
  const env = testEnv(redis.url, {
    // The test talks through "a proxy" on loopback, so each X-Forwarded-For address is a client.
    TRUST_PROXY: '127.0.0.1,::1',
    RATE_LIMIT_VARIANT_BUILD: '3/60',
    AUTH_FAILURE_LIMIT: '5/60',
    AUTH_FAILURE_BLOCK_SECONDS: '120',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '3',
    WS_MAX_MESSAGES_PER_SECOND: '10',
    RATE_LIMIT_WS_UPGRADE: '6/60',
    DRAIN_SECONDS: '3',
  });
  worker = await spawnProcess('workers/main.ts', env);
  [api, other] = await Promise.all([spawnProcess('src/main.ts', env), spawnProcess('src/main.ts', env)]);
  apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Limits E2E', new Date());
  await Promise.all([
    waitFor(`${api.base}/readyz`, (s) => s === 200, api),
    waitFor(`${other.base}/readyz`, (s) => s === 200, other),
  ]);
});

afterAll(async () => {
  await Promise.all([api?.stop(), other?.stop(), worker?.stop()]);
});

/** A GET as client `address` (through the trusted proxy). */
const get = (path: string, address: string, headers: Record<string, string> = {}, base = api.base) =>
  fetch(`${base}${path}`, {
    headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers },
    redirect: 'manual',
  });

interface ProblemBody {
  code: string;
  status: number;
  request_id?: string;
}

function expectRateLimited(res: Response, limit: string, points: number, seconds: number, maxRetry = seconds): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(maxRetry);
  expect(res.headers.get('ratelimit-policy')).toBe(`"${limit}";q=${points};w=${seconds}`);
  expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"${limit}";r=0;t=\\d+$`));
  expect(res.headers.get('content-type')).toBe('application/problem+json');
}

describe('429 rate_limited', () => {
  it('uncached variants: an address that keeps making us build new bodies is refused; cached reads of others are not', async () => {
    const address = '81.2.69.20';
    let refused: Response | undefined;
    for (let limit = 1; limit <= 30 && !refused; limit++) {
      // limit × currency: variants nobody else asked for
      const res = await get(`/v1/widgets/broad?fallback_geo=GB&currency=USD&limit=${limit}`, address);
      if (res.status === 429) refused = res;
      else expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(refused).toBeDefined();
    expectRateLimited(refused!, 'variant_build', 3, 60);
    expect((await get('/v1/widgets/broad?fallback_geo=GB&currency=USD&limit=1', '81.2.69.21')).status).toBe(200);
  });
});

describe('failed authentication', () => {
  it('blocks an address after AUTH_FAILURE_LIMIT failures, even for the right key, and logs a hashed address', async () => {
    const address = '81.2.69.50';
    const wrong = { 'x-advertiser-id': ADVERTISER, 'x-api-key': `pwk_${'A'.repeat(43)}` };
    for (let i = 0; i < 5; i++) expect((await get('/advertiser/v1/widgets/events', address, wrong)).status).toBe(401);
    // the failure that crosses the limit starts the block (AUTH_FAILURE_BLOCK_SECONDS)
    const starting = await get('/advertiser/v1/widgets/events', address, wrong);
    expectRateLimited(starting, 'auth_failures', 5, 60, 120);
    // Retry-After is the block's remaining time, from its first 429 on (not the failure window's).
    expect(Number(starting.headers.get('retry-after'))).toBeGreaterThan(60);
    const right = { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey };
    const blocked = await get('/advertiser/v1/widgets/events', address, right);
    expect(blocked.status).toBe(429);
    // blocked for AUTH_FAILURE_BLOCK_SECONDS, not just the failure window
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
    // on every process, and nobody else is affected
    expect((await get('/advertiser/v1/widgets/events', address, right, other.base)).status).toBe(429);
    expect((await get('/advertiser/v1/widgets/events', '81.2.69.51', right)).status).toBe(200);

    // The process writes its log lines when it gets to them: wait for all five, not the first.
    const failures = () =>
      api
        .output()
        .split('\n')
        .filter((l) => l.includes('advertiser authentication failed'));
    await expect.poll(() => failures().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(5);
    const lines = failures().map((l) => JSON.parse(l) as { level: number; address_hash?: string; request_id?: string });
    for (const line of lines) {
      expect(line.level).toBe(40); // warn
      expect(line.address_hash).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(line.request_id).toBeTruthy();
    }
    expect(api.output()).not.toContain(address);
    expect(api.output()).not.toContain('AAAAAAAAAA');
  });

  it('never refuses a key that verified from the blocked address, while a key new to it is refused', async () => {
    const keys = advertiserKeys(redis.client);
    const id = 'limits-neighbour';
    const key = await keys.create(id, 'Neighbour', new Date());
    const address = '81.2.69.70';
    const events = (headers: Record<string, string>) => get('/advertiser/v1/widgets/events', address, headers);
    expect((await events({ 'x-advertiser-id': id, 'x-api-key': key })).status).toBe(200);
    // A forgotten server behind the same egress address, with a key that no longer works.
    const stale = { 'x-advertiser-id': id, 'x-api-key': `pwk_${'B'.repeat(43)}` };
    for (let i = 0; i < 5; i++) expect((await events(stale)).status).toBe(401);
    expect((await events(stale)).status).toBe(429);
    // The good server keeps its service, request after request; the forgotten one stays blocked.
    for (let i = 0; i < 5; i++) expect((await events({ 'x-advertiser-id': id, 'x-api-key': key })).status).toBe(200);
    expect((await events(stale)).status).toBe(429);
    // A right key that never verified from there gets nothing from the block: a guess is no use.
    expect((await events({ 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey })).status).toBe(429);
  });

  it('never refuses a postback signed by a secret that verified from the blocked address, while a secret new to it is refused', async () => {
    const secret = await new PostbackSecrets(redis.client, loadConfig(testEnv(redis.url)).apiKeyPepper).create(
      'kalshi',
      new Date(),
    );
    const postback = (address: string, key: string, eventId: string) =>
      get(
        `/v1/postback?${signPostback(key, `operator=kalshi&click_id=${newClickId(Date.now())}&event=registration&event_id=${eventId}`)}`,
        address,
      );
    // The API has the secret once a postback signed with it is an unknown click (404), not a forgery (401).
    await expect
      .poll(async () => (await postback('81.2.69.92', secret, 'limits-probe')).status, { timeout: 5_000, interval: 50 })
      .toBe(404);
    const address = '81.2.69.90';
    expect((await postback(address, secret, 'limits-good-0')).status).toBe(404);
    // Another server of the operator behind the same address, left on a secret that no longer works.
    const stale = `pwp_${'D'.repeat(43)}`;
    for (let i = 0; i < 5; i++) expect((await postback(address, stale, `limits-stale-${i}`)).status).toBe(401);
    expectRateLimited(await postback(address, stale, 'limits-stale-5'), 'auth_failures', 5, 60, 120);
    // The good server is still heard, postback after postback; the forgotten one stays blocked.
    for (let i = 1; i <= 3; i++) expect((await postback(address, secret, `limits-good-${i}`)).status).toBe(404);
    expect((await postback(address, stale, 'limits-stale-6')).status).toBe(429);
    // A right signature that never verified from a blocked address gets nothing from the block.
    const blocked = '81.2.69.91';
    for (let i = 0; i < 6; i++) await postback(blocked, stale, `limits-other-${i}`);
    expect((await postback(blocked, secret, 'limits-other-good')).status).toBe(429);
  });

  it('import, rotate and retire lift the blocks that failures as that advertiser earned, on every process', async () => {
    const keys = advertiserKeys(redis.client);
    const cli = async (...args: string[]) => {
      const run = spawnEntry('src/tools/advertiser.ts', [...args, '--json'], {
        ...process.env,
        REDIS_URL: redis.url,
        DATA_DIR: mkdtempSync(join(tmpdir(), 'pw-cli-')),
      });
      expect(await run.exit, run.output()).toBe(0);
      return JSON.parse(run.output()) as { liftedBlocks: number; apiKey?: string };
    };
    const blockFrom = async (address: string, id: string) => {
      const wrong = { 'x-advertiser-id': id, 'x-api-key': `pwk_${'C'.repeat(43)}` };
      for (let i = 0; i < 6; i++) await get('/advertiser/v1/widgets/events', address, wrong);
      expect((await get('/advertiser/v1/widgets/events', address, wrong)).status).toBe(429);
    };
    const status = (address: string, id: string, key: string, base: string) =>
      get('/advertiser/v1/widgets/events', address, { 'x-advertiser-id': id, 'x-api-key': key }, base).then(
        (r) => r.status,
      );

    // import: a brute-force against the advertiser blocked its address; the restore lifts it.
    const restored = 'limits-restored';
    const restoredKey = await keys.create(restored, 'Restored', new Date());
    const backup = join(mkdtempSync(join(tmpdir(), 'pw-backup-')), 'advertisers.json');
    const exported = spawnEntry('src/tools/advertiser.ts', ['export', backup], {
      ...process.env,
      REDIS_URL: redis.url,
    });
    expect(await exported.exit, exported.output()).toBe(0);
    await blockFrom('81.2.69.80', restored);
    for (const base of [api.base, other.base])
      expect(await status('81.2.69.80', restored, restoredKey, base)).toBe(429);
    // (every advertiser of the file: the others here earned blocks in the tests above)
    expect((await cli('import', backup)).liftedBlocks).toBeGreaterThanOrEqual(1);
    for (const base of [api.base, other.base]) {
      await expect
        .poll(() => status('81.2.69.80', restored, restoredKey, base), { timeout: 2_000, interval: 50 })
        .toBe(200);
    }

    // rotate: a server kept a retired key; the new key works from its address at once.
    const rotated = 'limits-rotated';
    await keys.create(rotated, 'Rotated', new Date());
    await blockFrom('81.2.69.81', rotated);
    const { apiKey: fresh, liftedBlocks } = await cli('rotate', rotated);
    expect(liftedBlocks).toBe(1);
    for (const base of [api.base, other.base]) {
      await expect.poll(() => status('81.2.69.81', rotated, fresh!, base), { timeout: 2_000, interval: 50 }).toBe(200);
    }

    // retire: the same after the overlap ends.
    await blockFrom('81.2.69.82', rotated);
    expect((await cli('retire', rotated)).liftedBlocks).toBe(1);
    await expect
      .poll(() => status('81.2.69.82', rotated, fresh!, api.base), { timeout: 2_000, interval: 50 })
      .toBe(200);
  }, 60_000);

  it('a revoked key stops working on every process at once, though successful checks are cached', async () => {
    const keys = advertiserKeys(redis.client);
    const id = 'limits-revoke';
    const key = await keys.create(id, 'Revoke', new Date());
    const headers = { 'x-advertiser-id': id, 'x-api-key': key };
    for (const base of [api.base, other.base])
      expect((await get('/advertiser/v1/widgets/events', '81.2.69.60', headers, base)).status).toBe(200);
    await keys.revoke(id, new Date());
    for (const base of [api.base, other.base]) {
      await expect
        .poll(async () => (await get('/advertiser/v1/widgets/events', '81.2.69.61', headers, base)).status, {
          timeout: 1_000,
          interval: 50,
        })
        .toBe(401);
    }
  });
});

describe('advertiser usage headers', () => {
  it('every answer says what is left of the allowance, counted across processes', async () => {
    const id = 'limits-usage';
    const headers = {
      'x-advertiser-id': id,
      'x-api-key': await advertiserKeys(redis.client).create(id, 'Usage', new Date()),
    };
    const usage = (res: Response) => {
      const [, q, w] = /^"advertiser";q=(\d+);w=(\d+)$/.exec(res.headers.get('ratelimit-policy') ?? '')!;
      const [, r, t] = /^"advertiser";r=(\d+);t=(\d+)$/.exec(res.headers.get('ratelimit') ?? '')!;
      return { q: Number(q), w: Number(w), r: Number(r), t: Number(t) };
    };
    let sent = 0;
    const paths = ['/advertiser/v1/widgets/events', '/advertiser/v1/widgets/live-market?asset=BTC'];
    for (let i = 0; i < 6; i++) {
      const res = await get(paths[i % 2]!, '81.2.69.65', headers);
      sent++;
      expect(res.status).toBe(200);
      const u = usage(res);
      expect(u.r).toBe(u.q - sent);
      expect(u.t).toBeGreaterThan(0);
      expect(u.t).toBeLessThanOrEqual(u.w);
    }
    // A 304 says it too.
    const first = await get(paths[0]!, '81.2.69.65', headers);
    sent++;
    const again = await get(paths[0]!, '81.2.69.65', { ...headers, 'if-none-match': first.headers.get('etag')! });
    sent++;
    expect(again.status).toBe(304);
    expect(usage(again).r).toBe(usage(again).q - sent);
    // The other process learns the shared count from Redis with its first batch.
    await expect
      .poll(
        async () => {
          const res = await get(paths[0]!, '81.2.69.65', headers, other.base);
          sent++;
          // Requests counted by every process, less those this test sent.
          return usage(res).q - usage(res).r - sent;
        },
        { timeout: 2_000, interval: 100 },
      )
      .toBe(0);
  });
});

describe('attribution', () => {
  it('an unregistered advertiser_id attributes nothing and builds no variant of its own', async () => {
    const plain = await (await get('/v1/widgets/broad?fallback_geo=GB&limit=2', '81.2.69.70')).text();
    const invented = await get(
      '/v1/widgets/broad?fallback_geo=GB&limit=2&advertiser_id=made-up-advertiser',
      '81.2.69.70',
    );
    expect(invented.status).toBe(200);
    const body = await invented.text();
    expect(body).not.toContain('made-up-advertiser');
    expect(body).toBe(plain);
    const registered = await (
      await get(`/v1/widgets/broad?fallback_geo=GB&limit=2&advertiser_id=${ADVERTISER}`, '81.2.69.70')
    ).text();
    const link = new URL(BroadWidgetPayload.parse(JSON.parse(registered)).operators[0]!.routing.web_url);
    expect(link.searchParams.get('a')).toBe(ADVERTISER);
  });
});

/** Opens a WebSocket as client `address`; resolves with the socket or the refusal's status. */
const openWs = (address: string) =>
  openWebSocket(`${api.base.replace('http', 'ws')}/v1/ws`, { 'x-forwarded-for': address });

/** The headers of a refused WebSocket upgrade from `address`. */
async function refusalHeaders(address: string): Promise<Record<string, string | string[] | undefined>> {
  return (await refusedUpgrade(`${api.base.replace('http', 'ws')}/v1/ws`, { 'x-forwarded-for': address })).headers;
}

describe('WebSocket limits', () => {
  it('refuses a fourth connection from one address (IPv6: one /64) with 429, and admits it again after a close', async () => {
    const held = await Promise.all(['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:ffff::3'].map(openWs));
    for (const ws of held) expect(ws).toBeInstanceOf(WebSocket);
    expect(await openWs('2001:db8:5:6::99')).toBe(429); // same /64
    const refusal = await refusalHeaders('2001:db8:5:6::98');
    expect(refusal['retry-after']).toBe('5');
    expect(refusal['ratelimit-policy']).toBe('"ws_connections";q=3');
    expect(refusal.ratelimit).toBe('"ws_connections";r=0;t=5');
    const elsewhere = await openWs('2001:db8:5:7::1'); // another /64
    expect(elsewhere).toBeInstanceOf(WebSocket);
    const first = held[0] as WebSocket;
    await new Promise((r) => {
      first.once('close', r);
      first.close();
    });
    await expect
      .poll(
        async () => {
          const again = await openWs('2001:db8:5:6::99');
          if (again instanceof WebSocket) again.close();
          return again instanceof WebSocket;
        },
        { timeout: 5_000, interval: 100 },
      )
      .toBe(true);
    for (const ws of [...held.slice(1), elsewhere]) (ws as WebSocket).close();
  });

  it('refuses upgrades over the rate with 429 from memory, after admitting the whole allowance', async () => {
    const address = '81.2.69.90';
    let admitted = 0;
    // One connection at a time, each closed before the next: only the rate applies, not the cap.
    await expect
      .poll(
        async () => {
          const ws = await openWs(address);
          if (typeof ws === 'number') return ws;
          admitted++;
          await new Promise((r) => {
            ws.once('close', r);
            ws.close();
          });
          return 101;
        },
        { timeout: 15_000, interval: 100 },
      )
      .toBe(429);
    // Upgrades are charged after the fact (within about 50 ms) and a key is blocked as soon as its
    // allowance is used up; blocks reach the other worker over Redis. The allowance is never cut
    // short, and one connection at a time overshoots it only if the charge is slower than the next one.
    expect(admitted).toBeGreaterThanOrEqual(6);
    expect(admitted).toBeLessThanOrEqual(7);
    const refusal = await refusalHeaders(address);
    expect(refusal['ratelimit-policy']).toBe('"ws_upgrade";q=6;w=60');
    expect(Number(refusal['retry-after'])).toBeGreaterThan(0);
  });

  it('a repeated subscribe is a no-op, and a client over the message rate is closed with 1008', async () => {
    const ws = (await openWs('81.2.69.80')) as WebSocket;
    const frames: Array<{ op?: string; topic?: string; raw: string }> = [];
    ws.on('message', (d) =>
      frames.push({ ...(JSON.parse(d.toString()) as { op?: string; topic?: string }), raw: d.toString() }),
    );
    const topic = `event:${((await (await fetch(`${api.base}/advertiser/v1/widgets/events`, { headers: { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey } })).json()) as { data: { events: string[] } }).data.events[0]!}`;
    const data = () => frames.filter((f) => f.topic === topic && f.op === undefined);
    ws.send(JSON.stringify({ op: 'subscribe', topic }));
    await expect.poll(() => data().length, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 5; i++) ws.send(JSON.stringify({ op: 'subscribe', topic }));
    ws.send(JSON.stringify({ op: 'unsubscribe', topic }));
    await expect.poll(() => frames.some((f) => f.op === 'unsubscribed'), { timeout: 5_000 }).toBe(true);
    // The worker refreshes events every second, so changed bodies may be pushed meanwhile; but a
    // push carries a body that changed, and a re-sent payload would repeat the frame before it.
    const sent = data().map((f) => f.raw);
    expect(sent.filter((raw, i) => i > 0 && raw === sent[i - 1])).toEqual([]);

    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    for (let i = 0; i < 30; i++) ws.send(JSON.stringify({ op: 'unsubscribe', topic }));
    expect(await closed).toBe(1008);
  });
});

describe('WebSocket close codes', () => {
  it('a message over the size limit is closed with 1009 (RFC 6455: too big to process), not dropped', async () => {
    const ws = (await openWs('81.2.69.81')) as WebSocket;
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.send(JSON.stringify({ op: 'subscribe', topic: 'x'.repeat(MAX_MESSAGE_BYTES) }));
    expect(await closed).toBe(1009);
  });
});

describe('HTTP hygiene', () => {
  /** Sends raw bytes; resolves with everything read until the server closes the connection. */
  function raw(request: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const sock = connect(api.port, '127.0.0.1');
      let out = '';
      sock.on('data', (d) => (out += d.toString()));
      sock.on('end', () => resolve(out));
      sock.on('error', reject);
      sock.write(request);
    });
  }

  it('a GET or HEAD with Content-Length or Transfer-Encoding gets 400 and the connection is closed', async () => {
    const twoLengths = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n');
    expect(twoLengths).toMatch(/^HTTP\/1\.1 400 /);
    expect(twoLengths).toContain('"code":"invalid_parameter"');
    const chunked = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    expect(chunked).toMatch(/^HTTP\/1\.1 400 /);
    const head = await raw('HEAD /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    // resolving at all means the server closed the connection (a kept-alive one would hang)
  });

  it('X-Request-Id: a valid one is echoed, anything else replaced by ours', async () => {
    const given = await fetch(`${api.base}/healthz`, { headers: { 'x-request-id': 'abc-123.def' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123.def');
    const junk = await fetch(`${api.base}/v1/widgets/event?slug=nope`, {
      headers: { 'x-request-id': 'has spaces and <html>' },
    });
    const id = junk.headers.get('x-request-id')!;
    expect(id).toMatch(/^[A-Za-z0-9_-]+-[0-9a-z]+$/);
    expect(((await junk.json()) as ProblemBody).request_id).toBe(id);
  });
});

describe('drain', () => {
  it('on SIGTERM /readyz turns 503 while requests are still served, then the process exits', async () => {
    other.child.kill('SIGTERM');
    await expect
      .poll(async () => (await fetch(`${other.base}/readyz`)).status, { timeout: 2_000, interval: 50 })
      .toBe(503);
    expect((await fetch(`${other.base}/healthz`)).status).toBe(200);
    expect((await get('/v1/widgets/broad?fallback_geo=GB&limit=1', '81.2.69.90', {}, other.base)).status).toBe(200);
    await new Promise((r) => other.child.once('exit', r));
  });
});
