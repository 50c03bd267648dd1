/**
 * Conversions end to end, through two API workers: visitors (distinct addresses through a trusted
 * proxy) see an advertiser's widget, report it viewable and follow its links; each counted click
 * lands on the operator with its click id in the parameter the operator names; the operator's
 * server then sends signed postbacks for those clicks. Every impression, click and postback goes
 * through both workers (the same request again on new connections until two workers answered it),
 * so each is replayed; a forged postback, one for an unknown click, one for an expired click, a
 * malformed one and a HEAD change nothing. The report counts each exactly once, its amounts
 * converted at the FX snapshot's rates, and the postbacks metric counts every outcome. Expected
 * figures are computed with the service's own code from what the visitors were served.
 */
import { describe, expect, it } from 'vitest';
import { PostbackSecrets, signPostback } from '../../src/auth/postback-secrets.js';
import { loadConfig } from '../../src/config.js';
import { roundTo } from '../../src/domain/aggregate.js';
import { convert } from '../../src/domain/fx.js';
import { freePort } from '../../src/runtime/free-port.js';
import { readSnapshot } from '../../src/store/snapshots.js';
import { ReportPayload } from '../../src/tracking/advertiser-report.js';
import { clickKey, newClickId } from '../../src/tracking/click-ids.js';
import { BroadWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { clickIdOf } from '../support/click-ids.js';
import {
  answersThroughTwoWorkers,
  requestOnNewConnection,
  requestThroughTwoWorkers,
  TWO_LOGGED_WORKERS,
  type Answer,
} from '../support/api-workers.js';
import { useRedis } from '../support/redis.js';
import { advertiserKeys, testEnv, useService } from '../support/service.js';

const redis = useRedis();
const ADVERTISER = 'conversions-e2e';
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
let apiKey: string;
const secrets = new Map<string, string>();
// The primary's admin port sums both workers' metrics.
const adminPort = await freePort();
const service = useService(
  redis,
  {
    TRUST_PROXY: '127.0.0.1,::1',
    ADMIN_PORT: String(adminPort),
    ...TWO_LOGGED_WORKERS,
    // Each refused postback below goes through both workers, on as many connections as it takes the
    // kernel to reach the second: the failed-authentication limit (10 a minute per address, its own
    // drill in limits.test.ts) would block the operator's address part way, and did once in CI.
    AUTH_FAILURE_LIMIT: '1000/60',
  },
  async () => {
    apiKey = await advertiserKeys(redis.client).create(ADVERTISER, 'Conversions E2E', new Date());
  },
);

const get = (path: string, address: string, headers: Record<string, string> = {}) =>
  fetch(`${service.api.base}${path}`, {
    headers: { 'user-agent': PERSON, 'x-forwarded-for': address, ...headers },
    redirect: 'manual',
  });
const adv = (path: string) => get(path, '127.0.0.1', { 'x-advertiser-id': ADVERTISER, 'x-api-key': apiKey });
/** The same request through both API workers, from the operator's server. */
const throughBoth = (query: string): Promise<Answer[]> =>
  answersThroughTwoWorkers(service.api, `${service.api.base}/v1/postback?${query}`, { 'x-forwarded-for': '10.41.9.9' });

/** An operator's postback, signed with its secret (or `secret`). */
function postback(operator: string, fields: Record<string, string>, secret = secrets.get(operator)!): string {
  return signPostback(secret, new URLSearchParams({ operator, ...fields }).toString());
}

type Dims = { operator: string; widget: string; country: string };
interface Figures {
  impressions: number;
  clicks: number;
  registrations: number;
  first_deposits: number;
  deposits: number;
  /** Amounts per currency, in the currency's units. */
  amount: Array<[string, number]>;
  earnings: Array<[string, number]>;
}
const empty = (): Figures => ({
  impressions: 0,
  clicks: 0,
  registrations: 0,
  first_deposits: 0,
  deposits: 0,
  amount: [],
  earnings: [],
});

describe('conversions through two API workers', () => {
  it('count every impression, click and postback once, and nothing for forged, unknown, expired or malformed postbacks', async () => {
    // The operators' secrets, as the CLI makes them (same pepper as the service).
    const store = new PostbackSecrets(redis.client, loadConfig(testEnv(redis.url)).apiKeyPepper);
    const expected = new Map<string, { dims: Dims; f: Figures }>();
    const at = (dims: Dims) => {
      const key = `${dims.operator}|${dims.widget}|${dims.country}`;
      if (!expected.has(key)) expected.set(key, { dims, f: empty() });
      return expected.get(key)!.f;
    };
    const startDay = new Date().toISOString().slice(0, 10);

    // Links credit the advertiser once both workers have heard of it: a notice, within a moment of
    // its creation, or on a busy machine whose Redis answered the reload too late, the 30 s repair.
    const credited = async () =>
      (
        await answersThroughTwoWorkers(
          service.api,
          `${service.api.base}/v1/widgets/broad?fallback_geo=US-NJ&advertiser_id=${ADVERTISER}&limit=3`,
          { 'x-forwarded-for': '127.0.0.1' },
        )
      ).every(
        (a) =>
          new URL(BroadWidgetPayload.parse(JSON.parse(a.body)).impression_url!).searchParams.get('a') === ADVERTISER,
      );
    await expect.poll(credited, { timeout: 45_000, interval: 200 }).toBe(true);
    // Visitors in New Jersey see the advertiser's broad widget, report it seen and click two operators.
    const clicks: Array<{ operator: string; id: string; dims: Dims }> = [];
    for (const address of ['10.41.0.1', '10.41.0.2', '10.41.0.3']) {
      const broad = BroadWidgetPayload.parse(
        await (await get(`/v1/widgets/broad?fallback_geo=US-NJ&advertiser_id=${ADVERTISER}&limit=3`, address)).json(),
      );
      const country = broad.resolved_geo!.slice(0, 2);
      const u = new URL(broad.impression_url!);
      expect(u.searchParams.get('a')).toBe(ADVERTISER);
      expect(
        await requestThroughTwoWorkers(service.api, `${service.api.base}${u.pathname}${u.search}`, {
          'user-agent': PERSON,
          'x-forwarded-for': address,
        }),
      ).toSatisfy((s: number[]) => s.every((x) => x === 204));
      for (const operator of u.searchParams.get('o')!.split(','))
        at({ operator, widget: 'broad', country }).impressions++;
      for (const o of broad.operators.slice(0, 2)) {
        const link = new URL(o.routing.web_url);
        const operatorId = link.searchParams.get('o')!;
        const answers = await answersThroughTwoWorkers(
          service.api,
          `${service.api.base}${link.pathname}${link.search}`,
          { 'user-agent': PERSON, 'x-forwarded-for': address },
        );
        expect(answers.every((a) => a.status === 302)).toBe(true);
        const ids = answers.map((a) => clickIdOf(link, a.location!));
        // Each worker gave the visitor's click its own id and kept it for the repeats it answered.
        expect(ids.every((id) => id !== null && /^[A-Za-z0-9_-]{27}$/.test(id))).toBe(true);
        expect(new Set(ids).size).toBe(2);
        const dims = { operator: operatorId, widget: 'broad', country };
        at(dims).clicks++;
        clicks.push({ operator: operatorId, id: ids[0]!, dims });
      }
    }
    for (const op of new Set(clicks.map((c) => c.operator))) secrets.set(op, await store.create(op, new Date()));
    // Click ids resolve once the clicks' batch is written (about a second).
    for (const c of clicks)
      await expect.poll(() => redis.client.exists(clickKey(c.id)), { timeout: 5_000, interval: 50 }).toBe(1);

    // The operators' postbacks, each through both workers: the first answer counts, the rest are replays.
    const outcomes = new Map<string, number>();
    const count = (outcome: string, n = 1) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + n);
    const send = async (c: (typeof clicks)[number], fields: Record<string, string>) => {
      const answers = await throughBoth(postback(c.operator, { click_id: c.id, ...fields }));
      const statuses = answers.map((a) => `${a.status} ${(JSON.parse(a.body) as { status?: string }).status}`);
      expect(statuses).toEqual(['200 counted', ...Array<string>(answers.length - 1).fill('200 duplicate')]);
      count('counted');
      count('duplicate', answers.length - 1);
    };
    const [c1, c2, c3, c4] = clicks;
    await send(c1!, { event: 'registration', event_id: 'reg-1' });
    at(c1!.dims).registrations++;
    await send(c1!, { event: 'first_deposit', event_id: 'ftd-1', amount: '50.00', currency: 'EUR', commission: '25' });
    Object.assign(at(c1!.dims), {
      first_deposits: at(c1!.dims).first_deposits + 1,
      deposits: at(c1!.dims).deposits + 1,
    });
    at(c1!.dims).amount.push(['EUR', 50]);
    at(c1!.dims).earnings.push(['EUR', 25]);
    await send(c2!, { event: 'registration', event_id: 'reg-2' });
    at(c2!.dims).registrations++;
    await send(c3!, { event: 'deposit', event_id: 'dep-3', amount: '19.99', currency: 'GBP', commission: '2.5' });
    at(c3!.dims).deposits++;
    at(c3!.dims).amount.push(['GBP', 19.99]);
    at(c3!.dims).earnings.push(['GBP', 2.5]);
    await send(c4!, { event: 'registration', event_id: 'reg-4', commission: '10', currency: 'USD' });
    at(c4!.dims).registrations++;
    at(c4!.dims).earnings.push(['USD', 10]);

    // What must change nothing: each through both workers too.
    const refused = async (query: string, status: number, code: string, outcome: string) => {
      const answers = await throughBoth(query);
      for (const a of answers)
        expect([a.status, (JSON.parse(a.body) as { code: string }).code]).toEqual([status, code]);
      count(outcome, answers.length);
    };
    // Forged: signed with a secret that is not the operator's.
    await refused(
      postback(
        c1!.operator,
        { click_id: c1!.id, event: 'deposit', event_id: 'forged-1', amount: '5000', currency: 'USD' },
        'pwp_not-the-secret',
      ),
      401,
      'invalid_signature',
      'invalid_signature',
    );
    // Altered after signing.
    await refused(
      postback(c1!.operator, {
        click_id: c1!.id,
        event: 'deposit',
        event_id: 'forged-2',
        amount: '1',
        currency: 'USD',
      }).replace('amount=1', 'amount=9'),
      401,
      'invalid_signature',
      'invalid_signature',
    );
    await refused(
      postback(c1!.operator, { click_id: newClickId(Date.now()), event: 'registration', event_id: 'unknown-1' }),
      404,
      'unknown_click',
      'unknown_click',
    );
    // Another operator's click is as unknown as a made-up one.
    const other = clicks.find((c) => c.operator !== c1!.operator)!;
    await refused(
      postback(c1!.operator, { click_id: other.id, event: 'registration', event_id: 'foreign-1' }),
      404,
      'unknown_click',
      'unknown_click',
    );
    await refused(
      postback(c1!.operator, {
        click_id: newClickId(Date.now() - 31 * 86_400_000),
        event: 'registration',
        event_id: 'old-1',
      }),
      410,
      'click_expired',
      'click_expired',
    );
    await refused(
      postback(c1!.operator, { click_id: c1!.id, event: 'deposit', event_id: 'no-amount' }),
      400,
      'invalid_parameter',
      'malformed',
    );
    expect(
      await requestOnNewConnection(
        `${service.api.base}/v1/postback?${postback(c1!.operator, { click_id: c1!.id, event: 'registration', event_id: 'head-1' })}`,
        {},
        'HEAD',
      ),
    ).toBe(405);
    // One more replay through fetch, whose answers are checked against the OpenAPI document.
    const replay = await fetch(
      `${service.api.base}/v1/postback?${postback(c1!.operator, { click_id: c1!.id, event: 'registration', event_id: 'reg-1' })}`,
    );
    expect(await replay.json()).toEqual({
      status: 'duplicate',
      operator_id: c1!.operator,
      event: 'registration',
      event_id: 'reg-1',
      click_id: c1!.id,
    });
    count('duplicate');

    // The report: each exactly once, amounts in euros at the snapshot's rates.
    const fx = (await readSnapshot(redis.client, 'fx', 'daily'))?.data;
    const inEur = (pairs: Array<[string, number]>) =>
      pairs.reduce((sum, [cur, n]) => sum + convert(n, cur as 'EUR', 'EUR', fx)!, 0);
    const want = (groupBy: ReadonlyArray<keyof Dims>) => {
      const out = new Map<string, Figures>();
      for (const { dims, f } of expected.values()) {
        const key = groupBy.map((d) => dims[d]).join('|');
        const g = out.get(key) ?? empty();
        out.set(key, {
          impressions: g.impressions + f.impressions,
          clicks: g.clicks + f.clicks,
          registrations: g.registrations + f.registrations,
          first_deposits: g.first_deposits + f.first_deposits,
          deposits: g.deposits + f.deposits,
          amount: [...g.amount, ...f.amount],
          earnings: [...g.earnings, ...f.earnings],
        });
      }
      return new Map(
        [...out].map(([key, f]) => [
          key,
          {
            impressions: f.impressions,
            clicks: f.clicks,
            registrations: f.registrations,
            first_deposits: f.first_deposits,
            deposits: f.deposits,
            deposit_amount: roundTo(inEur(f.amount), 2),
            earnings: roundTo(inEur(f.earnings), 2),
          },
        ]),
      );
    };
    const column = { operator: 'operator_id', widget: 'widget', country: 'country' } as const;
    const got = (report: ReportPayload, groupBy: ReadonlyArray<keyof Dims>) => {
      const out = new Map<string, Record<string, number>>();
      for (const row of report.rows) {
        const key = groupBy.map((d) => row[column[d]]).join('|');
        const g = out.get(key) ?? {};
        for (const k of [
          'impressions',
          'clicks',
          'registrations',
          'first_deposits',
          'deposits',
          'deposit_amount',
          'earnings',
        ] as const)
          g[k] = roundTo((g[k] ?? 0) + row[k], 2);
        out.set(key, g);
      }
      return out;
    };
    const query = (groupBy: string) => `/advertiser/v1/reports?from=${startDay}&currency=EUR&group_by=${groupBy}`;
    const total = want([]).get('')!;
    await expect
      .poll(async () => ReportPayload.parse(await (await adv(query(''))).json()).totals, {
        timeout: 5_000,
        interval: 200,
      })
      .toMatchObject({
        ...total,
        earnings_per_click: roundTo(inEur([...expected.values()].flatMap((e) => e.f.earnings)) / total.clicks, 4),
      });
    for (const groupBy of [['operator'], ['widget', 'country'], ['operator', 'widget', 'country']] as Array<
      Array<keyof Dims>
    >) {
      const report = ReportPayload.parse(await (await adv(query(groupBy.join(',')))).json());
      expect(got(report, groupBy)).toEqual(want(groupBy));
      expect(report.currency).toBe('EUR');
      for (const row of report.rows)
        expect(row.conversion_rate).toBe(row.clicks > 0 ? roundTo(row.registrations / row.clicks, 6) : null);
    }
    expect(ReportPayload.parse(await (await adv(query('operator'))).json()).fx_as_of).toBe(fx!.asOfDate);

    // Every outcome counted once per postback answered, summed over both workers.
    const text = await (await fetch(`http://127.0.0.1:${adminPort}/metrics`)).text();
    const metric = (outcome: string) =>
      Number(new RegExp(`^predictwire_postbacks_total\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    for (const outcome of [
      'counted',
      'duplicate',
      'invalid_signature',
      'unknown_click',
      'click_expired',
      'malformed',
      'queued',
    ]) {
      expect(metric(outcome), outcome).toBe(outcomes.get(outcome) ?? 0);
    }
  }, 180_000);
});
