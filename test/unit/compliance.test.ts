import { describe, expect, it } from 'vitest';
import { buildCompliance, COMPLIANCE } from '../../src/catalog/compliance.js';
import { COMPLIANCE_RULES, NATIONAL_BLOCKS } from '../../src/catalog/compliance-rules.js';
import { DISCLOSURE_RULES, disclosureFor } from '../../src/catalog/disclosures.js';
import { inducementBan, offerFor } from '../../src/catalog/promotion-policy.js';
import { operatorById, OPERATORS } from '../../src/catalog/operators.js';
import { COUNTRY_CODES } from '../../src/geo/countries.js';

const allowedIn = (jurisdiction: string) =>
  OPERATORS.map((op) => op.id)
    .filter((id) => COMPLIANCE.isAllowed(id, jurisdiction))
    .sort();

/**
 * Written by hand from docs/compliance.md, so a rule change must update it on purpose: per operator,
 * every jurisdiction it may be shown in (exactly), and a sample where it may not.
 */
const TABLE: Record<string, { allowed: string[]; denied: string[] }> = {
  kalshi: {
    allowed: ['AL', 'AK', 'AR', 'CA', 'CO', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MI', 'MS', 'MO', 'NE', 'NH', 'NJ', 'NM', 'NC', 'ND', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TX', 'UT', 'VT', 'VA', 'WV', 'WY'].map((s) => `US-${s}`),
    denied: ['US', 'US-NV', 'US-MA', 'US-MD', 'US-NY', 'US-MN', 'US-AZ', 'CA-ON', 'GB', 'DE', 'BR', 'JP', 'CN', 'IN', 'ZZ'],
  },
  forecastex: {
    allowed: ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY'].map((s) => `US-${s}`),
    denied: ['US', 'US-MN', 'CA', 'CA-ON', 'HK', 'SG', 'GB', 'ZZ'],
  },
  polymarket: { allowed: [], denied: ['US', 'US-NJ', 'CN', 'JP', 'AE', 'CH', 'HK', 'KR', 'TR', 'ID', 'PH', 'IL', 'NG', 'MX', 'ES', 'PT', 'IE', 'DE', 'ZZ'] },
  limitless: { allowed: [], denied: ['US', 'US-NJ', 'CN', 'JP', 'AE', 'CH', 'MX', 'ES', 'ZZ'] },
  draftkings: {
    allowed: ['AZ', 'CO', 'CT', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MO', 'NH', 'NJ', 'NY', 'NC', 'OH', 'OR', 'PA', 'TN', 'VT', 'VA', 'WV', 'WY'].map((s) => `US-${s}`),
    denied: ['US', 'US-TX', 'US-CA', 'US-DC', 'US-NV', 'CA-ON', 'CA-BC', 'GB', 'ZZ'],
  },
  fanduel: {
    allowed: [...['AZ', 'CO', 'CT', 'DC', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'MD', 'MA', 'MI', 'MO', 'NJ', 'NY', 'NC', 'OH', 'PA', 'TN', 'VT', 'VA', 'WV', 'WY'].map((s) => `US-${s}`), 'CA-ON'],
    denied: ['US', 'US-TX', 'US-CA', 'US-NV', 'CA', 'CA-BC', 'CA-QC', 'CA-AB', 'GB', 'ZZ'],
  },
  caesars: {
    allowed: ['AZ', 'CO', 'DC', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MO', 'NJ', 'NV', 'NY', 'NC', 'OH', 'PA', 'TN', 'VA', 'WV', 'WY'].map((s) => `US-${s}`),
    denied: ['US', 'US-TX', 'US-CA', 'CA-ON', 'GB', 'ZZ'],
  },
  betmgm: {
    allowed: [...['AZ', 'DC', 'IN', 'KS', 'MA', 'MD', 'MO', 'NJ', 'NV', 'OH', 'PA', 'TN'].map((s) => `US-${s}`), 'CA-ON', 'GB'],
    denied: ['US', 'US-TX', 'US-CA', 'CA', 'CA-BC', 'IE', 'DE', 'ZZ'],
  },
  bet365: {
    allowed: [...['AZ', 'CO', 'IL', 'IN', 'IA', 'KY', 'LA', 'MO', 'NC', 'NJ', 'OH', 'PA', 'VA'].map((s) => `US-${s}`), 'GB', 'ES', 'BR'],
    denied: ['US', 'US-TX', 'US-CA', 'US-TN', 'CA-ON', 'CA-BC', 'DE', 'FR', 'AU', 'MX', 'IN', 'CN', 'ZZ'],
  },
  betfair: { allowed: ['GB'], denied: ['IE', 'ES', 'IT', 'DE', 'CY', 'GR', 'US-NJ', 'ZZ'] },
  fanatics: {
    allowed: ['IL', 'MA', 'MD', 'MO', 'OH', 'PA', 'TN'].map((s) => `US-${s}`),
    denied: ['US', 'US-NJ', 'US-TX', 'CA-ON', 'GB', 'ZZ'],
  },
};

describe('compliance rules', () => {
  it('cover every catalog operator with sourced, dated rules', () => {
    expect(COUNTRY_CODES.size).toBe(250); // 249 assigned + XK
    for (const op of OPERATORS) {
      const rules = COMPLIANCE.rules(op.id);
      expect(rules.length, op.id).toBeGreaterThan(0);
      for (const rule of rules) {
        expect(rule.source.length).toBeGreaterThan(20);
        expect(rule.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
    }
    for (const b of NATIONAL_BLOCKS) expect(b.source.length, b.jurisdiction).toBeGreaterThan(20);
    expect(Object.keys(TABLE).sort()).toEqual(OPERATORS.map((op) => op.id).sort());
  });

  for (const [id, { allowed, denied }] of Object.entries(TABLE)) {
    it(`shows ${id} exactly where its rules list it`, () => {
      const listed = COMPLIANCE.rules(id).flatMap((r) => r.jurisdictions);
      expect([...listed].sort()).toEqual([...allowed].sort());
      for (const j of allowed) expect(COMPLIANCE.isAllowed(id, j), `${id} in ${j}`).toBe(true);
      for (const j of denied) expect(COMPLIANCE.isAllowed(id, j), `${id} in ${j}`).toBe(false);
    });
  }

  it('decides by region where licences are regional', () => {
    expect(allowedIn('US-NJ')).toEqual(['bet365', 'betmgm', 'caesars', 'draftkings', 'fanduel', 'forecastex', 'kalshi']);
    // no online sports betting in Texas or California: only the CFTC exchanges
    expect(allowedIn('US-TX')).toEqual(['forecastex', 'kalshi']);
    expect(allowedIn('US-CA')).toEqual(['forecastex', 'kalshi']);
    // Minnesota bans advertising prediction markets; it has no online sportsbook either
    expect(allowedIn('US-MN')).toEqual([]);
    expect(COMPLIANCE.blocks('kalshi', 'US-MN').map((b) => b.jurisdiction)).toEqual(['US-MN']);
    // Ontario's iGaming market against British Columbia's Crown monopoly
    expect(allowedIn('CA-ON')).toEqual(['betmgm', 'fanduel']);
    expect(allowedIn('CA-BC')).toEqual([]);
    // an unknown region inside a regional country: only what is lawful in the whole country (nothing)
    expect(allowedIn('US')).toEqual([]);
    expect(allowedIn('CA')).toEqual([]);
  });

  it('decides by country elsewhere, deny by default', () => {
    expect(allowedIn('GB')).toEqual(['bet365', 'betfair', 'betmgm']);
    expect(allowedIn('BR')).toEqual(['bet365']);
    expect(allowedIn('ES')).toEqual(['bet365']);
    for (const country of ['DE', 'CN', 'JP', 'IN', 'AU', 'FR', 'AE', 'CH', 'HK', 'KR', 'TR', 'ID', 'PH', 'IL', 'NG', 'MX', 'PT', 'IE', 'ZZ']) {
      expect(allowedIn(country), country).toEqual([]);
    }
  });

  it('has a complete disclosure wherever an operator may be shown', () => {
    for (const code of new Set(COMPLIANCE_RULES.flatMap((r) => r.jurisdictions))) expect(disclosureFor(code), code).toBeDefined();
    for (const r of DISCLOSURE_RULES) expect(r.source.length, r.jurisdiction).toBeGreaterThan(20);
    expect(disclosureFor('US-NJ')).toMatchObject({ minAge: 21, phone: '1-800-GAMBLER' });
    // a state's own helpline over the national one, the national text and URL elsewhere
    expect(disclosureFor('US-NY')).toMatchObject({ minAge: 21, phone: '877-8-HOPENY', url: 'https://www.ncpgambling.org/' });
    expect(disclosureFor('US-PA')).toMatchObject({ minAge: 21, phone: '1-800-522-4700' });
    expect(disclosureFor('CA-ON')).toMatchObject({ minAge: 19, phone: '1-866-531-2600' });
    expect(disclosureFor('GB')).toMatchObject({ minAge: 18, phone: '0808 8020 133' });
    expect(disclosureFor('BR')).toMatchObject({ minAge: 18, phone: null });
    expect(disclosureFor('CA-BC')).toBeUndefined();
    expect(disclosureFor('ZZ')).toBeUndefined();
  });

  it('withholds offers where inducements are banned, regionally too', () => {
    const draftkings = operatorById('draftkings')!;
    const betmgm = operatorById('betmgm')!;
    expect(offerFor(draftkings, 'US-NJ')?.promoCode).toBe('DKWIRE');
    expect(inducementBan('CA-ON')?.jurisdiction).toBe('CA-ON');
    expect(offerFor(betmgm, 'CA-ON')).toBeUndefined();
    // region unknown in Canada: the strictest province's rule applies
    expect(inducementBan('CA')?.jurisdiction).toBe('CA-ON');
    expect(inducementBan('CA-BC')).toBeUndefined();
    expect(inducementBan('BR')?.jurisdiction).toBe('BR');
    expect(inducementBan('ES')?.jurisdiction).toBe('ES');
    expect(inducementBan('GB')).toBeUndefined();
  });

  it('evaluates a hand-made table the same way', () => {
    const table = buildCompliance(
      [
        { operatorId: 'national', jurisdictions: ['GB', 'IN'], source: 'a test rule naming two countries', asOf: '2026-11-23' },
        { operatorId: 'regional', jurisdictions: ['US-NJ', 'CA-ON'], source: 'a test rule naming two subdivisions', asOf: '2026-11-23' },
        { operatorId: 'nowhere', jurisdictions: [], source: 'a test rule that lists nothing', asOf: '2026-11-23' },
      ],
      ['national', 'regional', 'nowhere'],
      [{ jurisdiction: 'IN', operators: ['national'], source: 'a test national block order', asOf: '2026-11-23' }],
    );
    expect(table.isAllowed('national', 'GB')).toBe(true);
    expect(table.isAllowed('national', 'IN')).toBe(false);
    expect(table.blocks('national', 'IN').map((b) => b.source)).toEqual(['a test national block order']);
    expect(table.isAllowed('regional', 'US-NJ')).toBe(true);
    expect(table.isAllowed('regional', 'US-PA')).toBe(false);
    expect(table.isAllowed('regional', 'US')).toBe(false);
    expect(table.ruleFor('regional', 'CA-ON')?.source).toBe('a test rule naming two subdivisions');
    expect(table.isAllowed('nowhere', 'GB')).toBe(false);
    expect(table.isAllowed('national', 'ZZ')).toBe(false);
    expect(table.isAllowed('unknown-op', 'GB')).toBe(false);
  });

  it('refuses rules that miss an operator, name an unknown one, or carry bad codes', () => {
    const ids = OPERATORS.map((op) => op.id);
    const without = (id: string) => COMPLIANCE_RULES.filter((r) => r.operatorId !== id);
    expect(() => buildCompliance(without('kalshi'), ids)).toThrow(/kalshi has no compliance rule/);
    expect(() => buildCompliance([...COMPLIANCE_RULES, { operatorId: 'ghost', jurisdictions: ['US-NJ'], source: 'no such operator here', asOf: '2026-11-23' }], ids)).toThrow(
      /unknown operator ghost/,
    );
    const swap = (jurisdictions: string[]) => COMPLIANCE_RULES.map((r) => (r.operatorId === 'betfair' ? { ...r, jurisdictions } : r));
    expect(() => buildCompliance(swap(['GB', 'UK']), ids)).toThrow(/not a country code/);
    // a subdivision only counts in the countries whose licences are regional
    expect(() => buildCompliance(swap(['GB-ENG']), ids)).toThrow(/not a country code/);
    expect(() => buildCompliance(swap(['GB', 'GB']), ids)).toThrow(/GB listed twice/);
    expect(() => buildCompliance(swap(['US', 'US-NJ']), ids)).toThrow(/US-NJ listed although US is/);
    const undated = COMPLIANCE_RULES.map((r) => (r.operatorId === 'kalshi' ? { ...r, asOf: undefined } : r));
    expect(() => buildCompliance(undated, ids)).toThrow(/asOf/);
    expect(() => buildCompliance(COMPLIANCE_RULES, ids, [{ jurisdiction: 'BR', operators: ['ghost'], source: 'a block naming nobody', asOf: '2026-11-23' }])).toThrow(
      /unknown operator ghost/,
    );
    expect(() => buildCompliance(COMPLIANCE_RULES, ids, [{ jurisdiction: 'XX', operators: 'all', source: 'a block on no country', asOf: '2026-11-23' }])).toThrow(
      /not a country code/,
    );
    // a regional block where the whole country is listed would leave it shown to visitors whose region is unknown
    expect(() => buildCompliance(swap(['US']), ids, [{ jurisdiction: 'US-MN', operators: ['betfair'], source: 'a regional test block', asOf: '2026-11-23' }])).toThrow(
      /betfair: US listed whole although US-MN blocks it/,
    );
  });
});
