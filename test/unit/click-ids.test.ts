import { describe, expect, it } from 'vitest';
import { OperatorCatalog, type OperatorInput } from '../../src/catalog/operator-schema.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { operatorSites } from '../../src/catalog/operator-sites.js';
import { CLICK_ID, clickIdTime, newClickId } from '../../src/tracking/click-ids.js';
import { clickIdParam, landingUrl, type ClickTarget } from '../../src/tracking/click-links.js';

const NOW = Date.parse('2026-11-25T18:30:12.345Z');

describe('click ids', () => {
  it('are 27 base64url characters that carry their second and 128 random bits', () => {
    const ids = Array.from({ length: 600 }, () => newClickId(NOW));
    // More than two blocks of random bytes: every id differs, block boundaries included.
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(CLICK_ID);
      expect(clickIdTime(id)).toBe(Math.floor(NOW / 1000) * 1000);
    }
    // The random part differs in every byte position across ids (none is a counter or constant).
    const bytes = ids.map((id) => Buffer.from(id, 'base64url'));
    for (let i = 4; i < 20; i++) expect(new Set(bytes.map((b) => b[i])).size).toBeGreaterThan(100);
  });

  it('tell nothing of a string that is not one', () => {
    for (const bad of ['', 'short', `${newClickId(NOW)}x`, newClickId(NOW).replace(/^./, '+')])
      expect(clickIdTime(bad)).toBeUndefined();
  });
});

describe('landingUrl with a click id', () => {
  const target: ClickTarget = {
    operatorId: 'kalshi',
    widget: 'broad',
    placement: 'broad',
    country: 'US-NJ',
    advertiserId: 'acme-media',
    impressionId: 'imp-1',
    expiresAt: 2_000_000_000,
  };
  const kalshi = {
    affiliateUrl: 'https://kalshi.com/sign-up',
    webDomains: ['kalshi.com'],
    subIdParams: { advertiser: 'subId2', click: 'subId9' },
    destinations: [],
  };

  it('carries the id in the parameter the operator names, on the affiliate URL and on a deep link', () => {
    const id = newClickId(NOW);
    expect(new URL(landingUrl(target, kalshi, id)).searchParams.get('subId9')).toBe(id);
    const deep = new URL(landingUrl({ ...target, destination: 'https://kalshi.com/markets/x?y=1' }, kalshi, id));
    expect(deep.searchParams.get('subId9')).toBe(id);
    expect(deep.searchParams.get('y')).toBe('1');
  });

  it('carries none for a click not counted, or an operator that names no parameter for it', () => {
    expect(new URL(landingUrl(target, kalshi)).searchParams.has('subId9')).toBe(false);
    const id = newClickId(NOW);
    expect(landingUrl(target, { ...kalshi, subIdParams: { advertiser: 'subId2' } }, id)).not.toContain(id);
  });
});

describe('the catalog', () => {
  it("names the click id parameter of every operator's default site and of each licensed site", () => {
    for (const op of OPERATORS) {
      const sites = operatorSites(op);
      expect(clickIdParam(sites, undefined), op.id).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
      for (const d of sites.destinations)
        for (const j of d.jurisdictions) expect(clickIdParam(sites, j), `${op.id} ${j}`).toBe(d.clickIdParam);
    }
  });

  it('refuses an operator that names none', () => {
    const op = OPERATORS[0]!;
    const without: OperatorInput = { ...op, subIdParams: { impression: 'sub1' } };
    const result = OperatorCatalog.safeParse([without]);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message)).toContain(
      `${op.id}: subIdParams.click names no click id parameter`,
    );
  });

  it("sends a licensed site's click id under its own parameter, with the operator's other sub-ids", () => {
    const betmgm = operatorSites(OPERATORS.find((o) => o.id === 'betmgm')!);
    const gb = betmgm.destinations.find((d) => d.jurisdictions.includes('GB'))!;
    expect(gb.clickIdParam).not.toBe(betmgm.subIdParams!.click);
    const id = newClickId(NOW);
    const target: ClickTarget = {
      operatorId: 'betmgm',
      widget: 'broad',
      placement: 'broad',
      country: 'GB',
      advertiserId: 'acme-media',
      impressionId: 'imp-1',
      expiresAt: 2_000_000_000,
    };
    const landed = new URL(landingUrl(target, betmgm, id));
    expect(`${landed.origin}/`).toBe(gb.affiliateUrl);
    expect(landed.searchParams.get(gb.clickIdParam)).toBe(id);
    expect(landed.searchParams.has(betmgm.subIdParams!.click!)).toBe(false);
    expect(landed.searchParams.get(betmgm.subIdParams!.advertiser!)).toBe('acme-media');
    expect(
      new URL(landingUrl({ ...target, country: 'US-TX' }, betmgm, id)).searchParams.get(betmgm.subIdParams!.click!),
    ).toBe(id);
  });
});
