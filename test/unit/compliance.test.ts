import { describe, expect, it } from 'vitest';
import { buildCompliance, COMPLIANCE } from '../../src/catalog/compliance.js';
import { COMPLIANCE_RULES, NATIONAL_BLOCKS } from '../../src/catalog/compliance-rules.js';
import { OPERATORS } from '../../src/catalog/operators.js';
import { COUNTRY_CODES } from '../../src/geo/countries.js';

const allowedIn = (country: string) =>
  OPERATORS.map((op) => op.id)
    .filter((id) => COMPLIANCE.isAllowed(id, country))
    .sort();

describe('compliance rules', () => {
  it('cover every catalog operator with a sourced rule', () => {
    expect(COUNTRY_CODES.size).toBe(250); // 249 assigned + XK
    for (const op of OPERATORS) {
      const rule = COMPLIANCE.rule(op.id);
      expect(rule, op.id).toBeDefined();
      expect(rule!.source.length).toBeGreaterThan(20);
      expect(rule!.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    for (const b of NATIONAL_BLOCKS) expect(b.source.length, b.country).toBeGreaterThan(20);
  });

  it('filters per country', () => {
    expect(allowedIn('US')).toEqual(['bet365', 'betmgm', 'caesars', 'draftkings', 'fanatics', 'fanduel', 'forecastex', 'kalshi']);
    expect(allowedIn('GB')).toEqual(['bet365', 'betfair', 'betmgm']);
    // exchanges are not licensable in Germany: bet365 yes, Betfair no; Germany is not on Kalshi's restricted list
    expect(allowedIn('DE')).toEqual(['bet365', 'kalshi']);
    // Canada is on Kalshi's list and Ontario on Polymarket's
    expect(allowedIn('CA')).toEqual(['bet365', 'betmgm', 'caesars', 'draftkings', 'fanduel', 'forecastex']);
    // national blocks: Brazil's April 2026 order (Kalshi, Polymarket) and its licensing law (Limitless)
    expect(allowedIn('BR')).toEqual(['bet365']);
    // India's Online Gaming Act: no real-money operator at all
    expect(allowedIn('IN')).toEqual([]);
    expect(allowedIn('AU')).toEqual(['bet365']);
    expect(allowedIn('JP')).toEqual(['kalshi', 'limitless', 'polymarket']);
    // sanctioned and close-only countries see nothing from the crypto markets
    expect(allowedIn('IR')).toEqual([]);
    expect(allowedIn('SG')).toEqual([]);
    expect(allowedIn('FR')).toEqual([]);
  });

  it('shows only operators allowed everywhere for ZZ: none today', () => {
    expect(allowedIn('ZZ')).toEqual([]);
    const table = buildCompliance(
      [
        { operatorId: 'open-everywhere', mode: 'deny', countries: [], source: 'a test rule with no restrictions', asOf: '2026-11-23' },
        { operatorId: 'mostly-open', mode: 'deny', countries: ['US'], source: 'a test rule denying one country', asOf: '2026-11-23' },
        { operatorId: 'nationally-blocked', mode: 'deny', countries: [], source: 'open, but a country blocks it', asOf: '2026-11-23' },
      ],
      ['open-everywhere', 'mostly-open', 'nationally-blocked'],
      [{ country: 'IN', operators: ['nationally-blocked'], source: 'a test national block order', asOf: '2026-11-23' }],
    );
    expect(table.isAllowed('nationally-blocked', 'GB')).toBe(true);
    expect(table.isAllowed('nationally-blocked', 'IN')).toBe(false);
    expect(table.blocks('nationally-blocked', 'IN').map((b) => b.source)).toEqual(['a test national block order']);
    // blocked somewhere, so not "allowed everywhere": hidden from unknown countries
    expect(table.isAllowed('nationally-blocked', 'ZZ')).toBe(false);
    expect(table.isAllowed('open-everywhere', 'ZZ')).toBe(true);
    expect(table.isAllowed('mostly-open', 'ZZ')).toBe(false);
    expect(table.isAllowed('mostly-open', 'GB')).toBe(true);
    expect(table.isAllowed('unknown-op', 'GB')).toBe(false);
  });

  it('refuses rules that miss an operator, name an unknown one, or carry bad codes', () => {
    const ids = OPERATORS.map((op) => op.id);
    expect(() => buildCompliance(COMPLIANCE_RULES.slice(1), ids)).toThrow(/kalshi has no compliance rule/);
    expect(() => buildCompliance([...COMPLIANCE_RULES, { operatorId: 'ghost', mode: 'allow', countries: ['US'], source: 'no such operator here', asOf: '2026-11-23' }], ids)).toThrow(
      /unknown operator ghost/,
    );
    const bad = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, countries: ['US', 'UK'] } : r));
    expect(() => buildCompliance(bad, ids)).toThrow(/country code/);
    const dup = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, countries: ['US', 'US'] } : r));
    expect(() => buildCompliance(dup, ids)).toThrow(/duplicate country/);
    expect(() => buildCompliance([...COMPLIANCE_RULES, COMPLIANCE_RULES[0]], ids)).toThrow(/duplicate rule for kalshi/);
    const undated = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, asOf: undefined } : r));
    expect(() => buildCompliance(undated, ids)).toThrow(/asOf/);
    expect(() => buildCompliance(COMPLIANCE_RULES, ids, [{ country: 'BR', operators: ['ghost'], source: 'a block naming nobody', asOf: '2026-11-23' }])).toThrow(
      /unknown operator ghost/,
    );
    expect(() => buildCompliance(COMPLIANCE_RULES, ids, [{ country: 'XX', operators: 'all', source: 'a block on no country', asOf: '2026-11-23' }])).toThrow(
      /country code/,
    );
  });
});
