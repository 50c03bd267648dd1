/**
 * GET /v1/widgets/event/history against the real worker and API: the worker's refreshes become
 * points, served for the visitor's jurisdiction as the event widget is; bad input is a problem.
 */
import { describe, expect, it } from 'vitest';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { EventHistoryPayload } from '../../src/widgets/event-history.js';
import { CatalogPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { useService } from '../support/service.js';

const redis = useRedis();
const service = useService(redis);

const get = (path: string) => fetch(`${service.api.base}${path}`);

describe('GET /v1/widgets/event/history', () => {
  it('serves the points the worker recorded, with only the operators the jurisdiction may show', async () => {
    const catalog = CatalogPayload.parse(await (await get('/v1/catalog')).json());
    const shown = shownOperators('US-NJ');
    for (const { slug, category } of catalog.events.slice(0, 3)) {
      let body: EventHistoryPayload | undefined;
      await expect
        .poll(
          async () =>
            (body = EventHistoryPayload.parse(
              await (await get(`/v1/widgets/event/history?slug=${slug}&fallback_geo=US-NJ`)).json(),
            )).timestamps.length,
          { timeout: 5_000 },
        )
        .toBeGreaterThan(0);
      expect(body!.range).toBe('1d');
      expect(body!.resolved_geo).toBe('US');
      for (const o of body!.outcomes) {
        expect(o.probability_pct.length).toBe(body!.timestamps.length);
        for (const op of o.operators) {
          expect(shown.operatorOn(op.operator_id, category)).toBeDefined();
          expect(op.prices.length).toBe(body!.timestamps.length);
        }
      }
      const month = EventHistoryPayload.parse(
        await (await get(`/v1/widgets/event/history?slug=${slug}&range=30d&fallback_geo=US-NJ`)).json(),
      );
      expect(month.interval_seconds).toBe(3_600);
      expect(month.timestamps.length).toBeGreaterThan(0);
    }
  });

  it('answers bad input with problems', async () => {
    const cases: Array<[string, number, string]> = [
      ['/v1/widgets/event/history?slug=no-such-event', 404, 'not_found'],
      ['/v1/widgets/event/history?slug=x&range=2d', 400, 'invalid_parameter'],
      ['/v1/widgets/event/history', 400, 'invalid_parameter'],
    ];
    for (const [path, status, code] of cases) {
      const res = await get(path);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { code: string }).code).toBe(code);
    }
  });
});
