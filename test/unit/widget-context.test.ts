import { describe, expect, it } from 'vitest';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { loadConfig } from '../../src/config.js';
import { widgetContext } from '../../src/serve/widget-context.js';

const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' });
const NOW = new Date('2026-11-25T12:00:00Z');

describe('widgetContext', () => {
  it("carries the jurisdiction's view of the catalog, the same for every build there", () => {
    for (const country of ['US-NJ', 'GB', 'DE', 'ZZ']) {
      const view = shownOperators(country);
      const a = widgetContext(config, NOW, undefined, 'event|1', country);
      const b = widgetContext(config, NOW, 'adv-1', 'event|2', country);
      expect({ jurisdiction: a.jurisdiction, country: a.country, region: a.region }).toEqual({
        jurisdiction: view.jurisdiction,
        country: view.country,
        region: view.region,
      });
      for (const id of ['kalshi', 'polymarket', 'draftkings', 'bet365', 'nope']) {
        for (const surface of ['all', 'sports', 'economics'] as const)
          expect(a.operatorOn(id, surface)).toBe(view.operatorOn(id, surface));
        expect(a.offerFor(id)).toEqual(view.offerFor(id));
        expect(a.disclosureFor([id], 'all')).toEqual(view.disclosureFor([id], 'all'));
      }
      expect(b.operatorOn).toBe(a.operatorOn);
    }
  });

  it('derives the impression id from the variant, and draws a fresh random one without', () => {
    const a = widgetContext(config, NOW, undefined, 'event|7', 'US-NJ');
    expect(widgetContext(config, NOW, undefined, 'event|7', 'GB').impressionId).toBe(a.impressionId);
    expect(widgetContext(config, NOW, undefined, 'event|8', 'US-NJ').impressionId).not.toBe(a.impressionId);
    // More than one block of random bytes: ids stay distinct and well formed across refills.
    const ids = Array.from({ length: 1_000 }, () => widgetContext(config, NOW).impressionId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });
});
