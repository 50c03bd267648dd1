import { describe, expect, it } from 'vitest';
import { buildCompliance, COMPLIANCE } from '../../src/catalog/compliance.js';
import { COMPLIANCE_RULES } from '../../src/catalog/compliance-rules.js';
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
    }
  });

  it('filters per country', () => {
    expect(allowedIn('US')).toEqual(['bet365', 'betmgm', 'caesars', 'draftkings', 'fanatics', 'fanduel', 'forecastex', 'kalshi']);
    expect(allowedIn('GB')).toEqual(['bet365', 'betfair', 'betmgm']);
    // exchanges are not licensable in Germany: bet365 yes, Betfair no; the crypto markets are blocked
    expect(allowedIn('DE')).toEqual(['bet365']);
    expect(allowedIn('CA')).toEqual(['bet365', 'betmgm', 'caesars', 'draftkings', 'fanduel', 'forecastex']);
    expect(allowedIn('BR')).toEqual(['bet365', 'limitless', 'polymarket']);
    // sanctioned and close-only countries see nothing from the crypto markets
    expect(allowedIn('IR')).toEqual([]);
    expect(allowedIn('SG')).toEqual([]);
    expect(allowedIn('FR')).toEqual([]);
  });

  it('shows only operators allowed everywhere for ZZ: none today', () => {
    expect(allowedIn('ZZ')).toEqual([]);
    const table = buildCompliance(
      [
        { operatorId: 'open-everywhere', mode: 'deny', countries: [], source: 'a test rule with no restrictions' },
        { operatorId: 'mostly-open', mode: 'deny', countries: ['US'], source: 'a test rule denying one country' },
      ],
      ['open-everywhere', 'mostly-open'],
    );
    expect(table.isAllowed('open-everywhere', 'ZZ')).toBe(true);
    expect(table.isAllowed('mostly-open', 'ZZ')).toBe(false);
    expect(table.isAllowed('mostly-open', 'GB')).toBe(true);
    expect(table.isAllowed('unknown-op', 'GB')).toBe(false);
  });

  it('refuses rules that miss an operator, name an unknown one, or carry bad codes', () => {
    const ids = OPERATORS.map((op) => op.id);
    expect(() => buildCompliance(COMPLIANCE_RULES.slice(1), ids)).toThrow(/kalshi has no compliance rule/);
    expect(() => buildCompliance([...COMPLIANCE_RULES, { operatorId: 'ghost', mode: 'allow', countries: ['US'], source: 'no such operator here' }], ids)).toThrow(
      /unknown operator ghost/,
    );
    const bad = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, countries: ['US', 'UK'] } : r));
    expect(() => buildCompliance(bad, ids)).toThrow(/country code/);
    const dup = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, countries: ['US', 'US'] } : r));
    expect(() => buildCompliance(dup, ids)).toThrow(/duplicate country/);
    expect(() => buildCompliance([...COMPLIANCE_RULES, COMPLIANCE_RULES[0]], ids)).toThrow(/duplicate rule for kalshi/);
  });
});
