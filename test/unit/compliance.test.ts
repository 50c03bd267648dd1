import { describe, expect, it } from 'vitest';
import rulesJson from '../../src/catalog/compliance/rules.json' with { type: 'json' };
import { BUNDLED_RULES } from '../../src/catalog/compliance/bundled.js';
import {
  compileRules,
  compileRulesText,
  RulesError,
  type ComplianceRules,
} from '../../src/catalog/compliance/rules.js';
import { overdueRows } from '../../src/catalog/compliance/review.js';
import { RulesDocument } from '../../src/catalog/compliance/schema.js';
import type { ComplianceState } from '../../src/catalog/compliance/state.js';
import { suspends, type Suspension } from '../../src/catalog/compliance/suspensions.js';
import { offerFor } from '../../src/catalog/promotion-policy.js';
import { shownOperators } from '../../src/catalog/shown-operators.js';
import { operatorById, OPERATORS } from '../../src/catalog/operators.js';
import { COUNTRY_CODES } from '../../src/geo/countries.js';
import { Category } from '../../src/model/index.js';
import { jurisdictionOf } from '../../src/model/jurisdiction.js';

const IDS = OPERATORS.map((op) => op.id);
const RULES = BUNDLED_RULES;
const DOC = RulesDocument.parse(rulesJson);
const CATEGORIES = Category.options;

/** Operators shown on every surface there (the broad widget's list). */
const allowedIn = (jurisdiction: string, rules: ComplianceRules = RULES) =>
  IDS.filter((id) => CATEGORIES.every((c) => rules.verdict(id, jurisdiction, c).shown)).sort();
/** Jurisdictions an operator is listed in for `category` by the allow rows. */
const listed = (id: string, category: Category) =>
  DOC.allow
    .filter((r) => r.operator === id && (!r.categories || r.categories.includes(category)))
    .flatMap((r) => r.jurisdictions);

/**
 * Written by hand from docs/compliance.md, so a rule change must update it on purpose: per operator,
 * every jurisdiction it may be shown in on every surface (exactly), and a sample where it may not.
 */
const TABLE: Record<string, { allowed: string[]; denied: string[] }> = {
  kalshi: {
    allowed: [
      'AL',
      'AK',
      'AZ',
      'AR',
      'CA',
      'CO',
      'DE',
      'DC',
      'FL',
      'GA',
      'HI',
      'ID',
      'IN',
      'KS',
      'ME',
      'MS',
      'MO',
      'NE',
      'NH',
      'NJ',
      'NM',
      'NC',
      'ND',
      'OK',
      'OR',
      'PA',
      'SC',
      'SD',
      'TN',
      'TX',
      'VT',
      'VA',
      'WV',
      'WY',
    ].map((s) => `US-${s}`),
    denied: [
      'US',
      'US-NV',
      'US-MA',
      'US-MD',
      'US-NY',
      'US-MN',
      'US-MI',
      'US-UT',
      'US-LA',
      'US-WA',
      'CA-ON',
      'GB',
      'DE',
      'BR',
      'JP',
      'CN',
      'IN',
      'ZZ',
    ],
  },
  forecastex: {
    allowed: [
      'AL',
      'AK',
      'AZ',
      'AR',
      'CA',
      'CO',
      'CT',
      'DE',
      'DC',
      'FL',
      'GA',
      'HI',
      'ID',
      'IL',
      'IN',
      'IA',
      'KS',
      'KY',
      'ME',
      'MD',
      'MA',
      'MI',
      'MS',
      'MO',
      'MT',
      'NE',
      'NV',
      'NH',
      'NJ',
      'NM',
      'NY',
      'NC',
      'ND',
      'OH',
      'OK',
      'OR',
      'PA',
      'RI',
      'SC',
      'SD',
      'TN',
      'TX',
      'UT',
      'VT',
      'VA',
      'WA',
      'WV',
      'WI',
      'WY',
    ].map((s) => `US-${s}`),
    denied: ['US', 'US-MN', 'US-LA', 'CA', 'CA-ON', 'HK', 'SG', 'GB', 'ZZ'],
  },
  polymarket: {
    allowed: [],
    denied: [
      'US',
      'US-NJ',
      'CN',
      'JP',
      'AE',
      'CH',
      'HK',
      'KR',
      'TR',
      'ID',
      'PH',
      'IL',
      'NG',
      'MX',
      'ES',
      'PT',
      'IE',
      'DE',
      'ZZ',
    ],
  },
  limitless: { allowed: [], denied: ['US', 'US-NJ', 'CN', 'JP', 'AE', 'CH', 'MX', 'ES', 'ZZ'] },
  draftkings: {
    allowed: [
      'AZ',
      'CO',
      'CT',
      'IL',
      'IN',
      'IA',
      'KS',
      'KY',
      'LA',
      'ME',
      'MD',
      'MA',
      'MI',
      'MO',
      'NH',
      'NJ',
      'NY',
      'NC',
      'OH',
      'OR',
      'PA',
      'TN',
      'VT',
      'VA',
      'WV',
      'WY',
    ].map((s) => `US-${s}`),
    denied: ['US', 'US-TX', 'US-CA', 'US-DC', 'US-NV', 'CA-ON', 'CA-BC', 'GB', 'ZZ'],
  },
  fanduel: {
    allowed: [
      ...[
        'AZ',
        'CO',
        'CT',
        'DC',
        'IL',
        'IN',
        'IA',
        'KS',
        'KY',
        'LA',
        'MD',
        'MA',
        'MI',
        'MO',
        'NJ',
        'NY',
        'NC',
        'OH',
        'PA',
        'TN',
        'VT',
        'VA',
        'WV',
        'WY',
      ].map((s) => `US-${s}`),
      'CA-ON',
    ],
    denied: ['US', 'US-TX', 'US-CA', 'US-NV', 'CA', 'CA-BC', 'CA-QC', 'CA-AB', 'GB', 'ZZ'],
  },
  caesars: {
    allowed: [
      'AZ',
      'CO',
      'DC',
      'IL',
      'IN',
      'IA',
      'KS',
      'KY',
      'LA',
      'ME',
      'MD',
      'MA',
      'MI',
      'MO',
      'NJ',
      'NV',
      'NY',
      'NC',
      'OH',
      'PA',
      'TN',
      'VA',
      'WV',
      'WY',
    ].map((s) => `US-${s}`),
    denied: ['US', 'US-TX', 'US-CA', 'CA-ON', 'GB', 'ZZ'],
  },
  betmgm: {
    allowed: [
      ...[
        'AZ',
        'CO',
        'DC',
        'IA',
        'IL',
        'IN',
        'KS',
        'LA',
        'MA',
        'MD',
        'MI',
        'MO',
        'NC',
        'NJ',
        'NV',
        'NY',
        'OH',
        'PA',
        'TN',
        'VA',
        'WV',
        'WY',
      ].map((s) => `US-${s}`),
      'CA-ON',
      'GB',
    ],
    // Kentucky: licensed and live, but no site of its own confirmed to land on
    denied: ['US', 'US-TX', 'US-CA', 'US-KY', 'CA', 'CA-BC', 'IE', 'DE', 'ZZ'],
  },
  bet365: {
    allowed: [...['AZ', 'CO', 'IA', 'IL', 'LA', 'NC', 'NJ', 'OH', 'PA', 'VA'].map((s) => `US-${s}`), 'GB', 'ES', 'BR'],
    // Indiana, Kentucky, Missouri: licensed and live, but no state site confirmed to land on
    denied: [
      'US',
      'US-TX',
      'US-CA',
      'US-TN',
      'US-IN',
      'US-KY',
      'US-MO',
      'CA-ON',
      'CA-BC',
      'DE',
      'FR',
      'AU',
      'MX',
      'IN',
      'CN',
      'ZZ',
    ],
  },
  betfair: { allowed: ['GB', 'BR'], denied: ['IE', 'ES', 'IT', 'DE', 'CY', 'GR', 'US-NJ', 'ZZ'] },
  fanatics: {
    allowed: ['CT', 'IL', 'IN', 'KY', 'MA', 'MD', 'MI', 'MO', 'NC', 'NJ', 'NY', 'OH', 'PA', 'TN', 'VT', 'VA', 'WV'].map(
      (s) => `US-${s}`,
    ),
    // launches likely but not found
    denied: ['US', 'US-AZ', 'US-CO', 'US-IA', 'US-KS', 'US-LA', 'US-WY', 'US-TX', 'CA-ON', 'GB', 'ZZ'],
  },
};

/** A document with one row replaced or appended (by id), for the refusals below. */
function withRow(
  table: 'allow' | 'blocks' | 'destinations' | 'disclosures' | 'inducement_bans',
  row: Record<string, unknown>,
) {
  const rows = DOC[table] as Array<{ id: string }>;
  const at = rows.findIndex((r) => r.id === row.id);
  const next = at >= 0 ? rows.map((r, i) => (i === at ? { ...r, ...row } : r)) : [...rows, row];
  return { ...DOC, [table]: next };
}
const problemsOf = (doc: unknown): readonly string[] => {
  try {
    compileRules(doc, IDS);
  } catch (err) {
    if (err instanceof RulesError) return err.problems;
    throw err;
  }
  return [];
};
const REVIEWED = {
  why: 'a test row, with its reason',
  sources: ['https://example.com/source'],
  reviewed_on: '2026-11-27',
};

describe('compliance rules (rules.json)', () => {
  it('cover every catalog operator with rows that link their sources and carry a review date', () => {
    expect(COUNTRY_CODES.size).toBe(250); // 249 assigned + XK
    for (const id of IDS)
      expect(
        DOC.allow.some((r) => r.operator === id),
        id,
      ).toBe(true);
    for (const { row } of RULES.rows()) {
      expect(row.why.length, row.id).toBeGreaterThan(20);
      expect(row.sources.length, row.id).toBeGreaterThan(0);
      for (const url of row.sources) expect(new URL(url).protocol, row.id).toMatch(/^https?:$/);
    }
    expect(Object.keys(TABLE).sort()).toEqual([...IDS].sort());
  });

  for (const [id, { allowed, denied }] of Object.entries(TABLE)) {
    it(`shows ${id} on every surface exactly where its rows list it`, () => {
      const everywhere = [...new Set(listed(id, CATEGORIES[0]!))].filter((j) =>
        CATEGORIES.every((c) => RULES.verdict(id, j, c).shown),
      );
      expect(everywhere.sort()).toEqual([...allowed].sort());
      for (const j of denied)
        expect(RULES.verdict(id, j, 'economics').shown && RULES.verdict(id, j, 'sports').shown, `${id} in ${j}`).toBe(
          false,
        );
    });
  }

  it('decides by region where licences are regional', () => {
    expect(allowedIn('US-NJ')).toEqual([
      'bet365',
      'betmgm',
      'caesars',
      'draftkings',
      'fanatics',
      'fanduel',
      'forecastex',
      'kalshi',
    ]);
    // no online sports betting in Texas or California: only the CFTC exchanges
    expect(allowedIn('US-TX')).toEqual(['forecastex', 'kalshi']);
    expect(allowedIn('US-CA')).toEqual(['forecastex', 'kalshi']);
    // Minnesota bans advertising prediction markets; it has no online sportsbook either
    expect(allowedIn('US-MN')).toEqual([]);
    expect(DOC.blocks.filter((b) => b.jurisdiction === 'US-MN').flatMap((b) => b.operators)).toEqual([
      'kalshi',
      'forecastex',
      'polymarket',
      'limitless',
    ]);
    // Ontario's iGaming market against British Columbia's Crown monopoly
    expect(allowedIn('CA-ON')).toEqual(['betmgm', 'fanduel']);
    expect(allowedIn('CA-BC')).toEqual([]);
    // an unknown region inside a regional country: only what is lawful in the whole country (nothing)
    expect(allowedIn('US')).toEqual([]);
    expect(allowedIn('CA')).toEqual([]);
  });

  it('decides by country elsewhere, deny by default', () => {
    expect(allowedIn('GB')).toEqual(['bet365', 'betfair', 'betmgm']);
    expect(allowedIn('BR')).toEqual(['bet365', 'betfair']);
    expect(allowedIn('ES')).toEqual(['bet365']);
    for (const country of [
      'DE',
      'CN',
      'JP',
      'IN',
      'AU',
      'FR',
      'AE',
      'CH',
      'HK',
      'KR',
      'TR',
      'ID',
      'PH',
      'IL',
      'NG',
      'MX',
      'PT',
      'IE',
      'ZZ',
    ]) {
      expect(allowedIn(country), country).toEqual([]);
    }
  });

  it("follows each state's action against Kalshi on the surfaces it covers, and shows it where a federal court protects it", () => {
    const shownOn = (j: string) => CATEGORIES.filter((c) => RULES.verdict('kalshi', j, c).shown);
    // sports contracts only: a suit, a restraining order, an advisory, cease-and-desist letters
    for (const j of ['US-MI', 'US-LA', 'US-KY', 'US-RI', 'US-IA', 'US-MA', 'US-MD', 'US-CT', 'US-OH', 'US-NY'])
      expect(shownOn(j), j).toEqual(['politics', 'economics', 'crypto', 'culture']);
    // sports and election contracts
    for (const j of ['US-WI', 'US-IL']) expect(shownOn(j), j).toEqual(['economics', 'crypto', 'culture']);
    // sports, election and entertainment contracts
    expect(shownOn('US-NV')).toEqual(['economics', 'crypto']);
    // every contract
    for (const j of ['US-UT', 'US-WA', 'US-MT', 'US-MN']) expect(shownOn(j), j).toEqual([]);
    for (const j of ['US-TN', 'US-AZ', 'US-NJ', 'US-TX']) expect(shownOn(j), j).toEqual(CATEGORIES);
    // Louisiana's advisory covers every exchange's sports contracts
    expect(RULES.verdict('forecastex', 'US-LA', 'sports')).toMatchObject({ shown: false, reason: 'blocked' });
    expect(RULES.verdict('forecastex', 'US-LA', 'economics').shown).toBe(true);
  });

  it("shows Kalshi's own age (18) beside its contracts, the state's (21) beside sports", () => {
    const state: ComplianceState = { rules: RULES, suspensions: [], version: 0 };
    const view = shownOperators('US-NJ', { state });
    expect(view.disclosureFor(['kalshi'], 'economics')?.minAge).toBe(18);
    expect(view.disclosureFor(['kalshi'], 'sports')?.minAge).toBe(21);
    expect(view.disclosureFor(['kalshi'], 'all')?.minAge).toBe(21);
    expect(view.disclosureFor(['forecastex'], 'economics')?.minAge).toBe(21);
  });

  it('has a complete disclosure wherever an operator may be shown', () => {
    for (const code of new Set(DOC.allow.flatMap((r) => r.jurisdictions)))
      expect(RULES.disclosureFor(code), code).toBeDefined();
    expect(RULES.disclosureFor('US-NJ')).toMatchObject({ minAge: 21, phone: '1-800-GAMBLER' });
    // a state's own helpline over the national one, the national text and URL elsewhere
    expect(RULES.disclosureFor('US-NY')).toMatchObject({ minAge: 21, phone: '877-8-HOPENY' });
    expect(RULES.disclosureFor('US-TX')).toMatchObject({
      minAge: 21,
      phone: '1-800-522-4700',
      url: 'https://www.ncpgambling.org/',
    });
    expect(RULES.disclosureFor('CA-ON')).toMatchObject({ minAge: 19, phone: '1-866-531-2600' });
    expect(RULES.disclosureFor('GB')).toMatchObject({
      minAge: 18,
      phone: '0808 8020 133',
      url: 'https://www.gamcare.org.uk/',
    });
    // the states whose rules name 1-800-GAMBLER, each with its own help service
    for (const j of ['US-PA', 'US-MD', 'US-MI', 'US-IL'])
      expect(RULES.disclosureFor(j), j).toMatchObject({ minAge: 21, phone: '1-800-GAMBLER' });
    expect(RULES.disclosureFor('US-PA')?.url).toBe('https://www.ddap.pa.gov/');
    expect(RULES.disclosureFor('BR')).toMatchObject({ minAge: 18, phone: null });
    expect(RULES.disclosureFor('CA-BC')).toBeUndefined();
    expect(RULES.disclosureFor('ZZ')).toBeUndefined();
  });

  it('withholds offers where inducements are banned, regionally too', () => {
    const draftkings = operatorById('draftkings')!;
    const betmgm = operatorById('betmgm')!;
    expect(offerFor(draftkings, 'US-NJ', RULES)?.promoCode).toBe('DKWIRE');
    expect(RULES.inducementBan('CA-ON')?.jurisdiction).toBe('CA-ON');
    expect(offerFor(betmgm, 'CA-ON', RULES)).toBeUndefined();
    // region unknown in Canada: the strictest province's rule applies
    expect(RULES.inducementBan('CA')?.jurisdiction).toBe('CA-ON');
    expect(RULES.inducementBan('CA-BC')).toBeUndefined();
    expect(RULES.inducementBan('BR')?.jurisdiction).toBe('BR');
    expect(RULES.inducementBan('GB')).toBeUndefined();
    // Spain's welcome-bonus ban was annulled (STS 527/2024)
    expect(RULES.inducementBan('ES')).toBeUndefined();
  });

  it('lands each operator on the site its destination rows name, else its default', () => {
    const site = (id: string, j: string) => RULES.destinations(id).find((d) => d.jurisdictions.includes(j))?.url;
    expect(site('bet365', 'BR')).toBe('https://www.bet365.bet.br/');
    expect(site('fanduel', 'CA-ON')).toBe('https://on.sportsbook.fanduel.ca/');
    expect(site('draftkings', 'US-NJ')).toBeUndefined();
    expect(site('bet365', 'US-NJ')).toBe('https://www.nj.bet365.com/');
    expect(site('betmgm', 'US-NJ')).toBe('https://www.nj.betmgm.com/en/sports');
    // every state bet365 or BetMGM may be shown in has its own site
    for (const id of ['bet365', 'betmgm']) {
      for (const j of DOC.allow
        .filter((r) => r.operator === id)
        .flatMap((r) => r.jurisdictions)
        .filter((j) => j.startsWith('US-')))
        expect(site(id, j), `${id} ${j}`).toMatch(
          new RegExp(`^https://[a-z]+\\.${j.slice(3).toLowerCase()}\\.${id}\\.com/`),
        );
    }
  });
});

describe('surfaces: an operator allowed for some contract categories and not others', () => {
  // Kalshi's rows replaced by two of the test's own: every category but sports in three states, sports in Texas only.
  const doc = {
    ...DOC,
    allow: [
      ...DOC.allow.filter((r) => r.operator !== 'kalshi'),
      {
        id: 'kalshi-test-contracts',
        operator: 'kalshi',
        jurisdictions: ['US-NJ', 'US-TX', 'US-LA'],
        categories: ['politics', 'economics', 'crypto', 'culture'],
        min_age: 18,
        ...REVIEWED,
      },
      { id: 'kalshi-test-sports', operator: 'kalshi', jurisdictions: ['US-TX'], categories: ['sports'], ...REVIEWED },
    ],
  };
  const rules = compileRules(doc, IDS);

  it("keeps Kalshi's economics contracts and drops its sports lines where only those are allowed", () => {
    expect(rules.verdict('kalshi', 'US-NJ', 'economics')).toMatchObject({ shown: true });
    expect(rules.verdict('kalshi', 'US-NJ', 'sports')).toMatchObject({ shown: false, reason: 'category' });
    // another row lists the sports surface in Texas: both rows together show every surface
    expect(CATEGORIES.every((c) => rules.verdict('kalshi', 'US-TX', c).shown)).toBe(true);
    // a row that lists a jurisdiction for some categories says nothing of others: not listed for them
    expect(rules.verdict('kalshi', 'US-LA', 'politics')).toMatchObject({ shown: true });
    expect(rules.verdict('kalshi', 'US-LA', 'sports')).toMatchObject({ shown: false });
  });

  it('blocks one surface with a block row that names its categories', () => {
    const blocked = compileRules(
      {
        ...doc,
        blocks: [
          ...doc.blocks,
          {
            id: 'us-tx-test-sports',
            jurisdiction: 'US-TX',
            operators: ['kalshi'],
            categories: ['sports'],
            ...REVIEWED,
          },
        ],
      },
      IDS,
    );
    expect(blocked.verdict('kalshi', 'US-TX', 'sports')).toMatchObject({
      shown: false,
      reason: 'blocked',
      blocks: [{ id: 'us-tx-test-sports' }],
    });
    expect(blocked.verdict('kalshi', 'US-TX', 'economics')).toMatchObject({ shown: true });
  });

  it("a view shows the operator on the surfaces allowed, as a whole only where every one is, with the operator's own age", () => {
    const state: ComplianceState = { rules, suspensions: [], version: 0 };
    const view = shownOperators('US-NJ', { state });
    expect(view.operatorOn('kalshi', 'economics')?.id).toBe('kalshi');
    expect(view.operatorOn('kalshi', 'sports')).toBeUndefined();
    expect(view.operatorOn('kalshi', 'all')).toBeUndefined();
    expect(view.operatorOn('draftkings', 'all')?.id).toBe('draftkings');
    // the operator's own age for the surfaces it shows, the jurisdiction's for a sportsbook
    expect(view.disclosureFor(['kalshi'], 'economics')?.minAge).toBe(18);
    expect(view.disclosureFor(['kalshi', 'draftkings'], 'economics')?.minAge).toBe(21);
  });
});

describe('suspensions', () => {
  const s = (jurisdiction: string, surface: Category | null = null): Suspension => ({
    operator: 'kalshi',
    jurisdiction,
    surface,
    reason: 'court order',
    by: 'officer',
    at: '2026-11-27T10:00:00.000Z',
  });

  it('cover their jurisdiction, the regions of a suspended country, and a region unknown in a country with a suspended region', () => {
    expect(suspends(s('US-MI'), 'kalshi', jurisdictionOf('US-MI'), 'sports')).toBe(true);
    expect(suspends(s('US-MI'), 'kalshi', jurisdictionOf('US-NJ'), 'sports')).toBe(false);
    expect(suspends(s('US-MI'), 'kalshi', jurisdictionOf('US'), 'sports')).toBe(true);
    expect(suspends(s('US'), 'kalshi', jurisdictionOf('US-NJ'), 'economics')).toBe(true);
    expect(suspends(s('US-MI'), 'forecastex', jurisdictionOf('US-MI'), 'sports')).toBe(false);
  });

  it('of one surface leave the others', () => {
    expect(suspends(s('US-MI', 'sports'), 'kalshi', jurisdictionOf('US-MI'), 'sports')).toBe(true);
    expect(suspends(s('US-MI', 'sports'), 'kalshi', jurisdictionOf('US-MI'), 'economics')).toBe(false);
  });

  it('fold into the view: the operator is absent where suspended, present elsewhere', () => {
    const state: ComplianceState = { rules: RULES, suspensions: [s('US-NJ', 'sports')], version: 0 };
    const view = (j: string) => shownOperators(j, { state });
    expect(view('US-NJ').operatorOn('kalshi', 'sports')).toBeUndefined();
    expect(view('US-NJ').operatorOn('kalshi', 'economics')?.id).toBe('kalshi');
    expect(view('US-NJ').operatorOn('kalshi', 'all')).toBeUndefined();
    expect(view('US-TX').operatorOn('kalshi', 'sports')?.id).toBe('kalshi');
  });
});

describe('refusing a rules document, naming the row', () => {
  it('refuses a missing operator, an unknown one, bad codes and duplicates', () => {
    expect(problemsOf({ ...DOC, allow: DOC.allow.filter((r) => r.operator !== 'betfair') })).toContain(
      'operator betfair has no allow row (a row with no jurisdiction says why it is shown nowhere)',
    );
    expect(
      problemsOf(withRow('allow', { id: 'ghost-us', operator: 'ghost', jurisdictions: ['US-NJ'], ...REVIEWED })),
    ).toEqual([expect.stringMatching(/^row ghost-us \(allow\[\d+\]\): unknown operator ghost$/)]);
    const betfair = DOC.allow.find((r) => r.operator === 'betfair')!;
    const at = DOC.allow.indexOf(betfair);
    expect(problemsOf(withRow('allow', { id: betfair.id, jurisdictions: ['GB', 'UK'] }))).toEqual([
      `row ${betfair.id} (allow[${at}]) jurisdictions.1: not a country code or a subdivision of US or CA`,
    ]);
    // a subdivision only counts in the countries whose licences are regional
    expect(problemsOf(withRow('allow', { id: betfair.id, jurisdictions: ['GB-ENG'] }))[0]).toMatch(
      /not a country code/,
    );
    expect(problemsOf(withRow('allow', { id: betfair.id, jurisdictions: ['GB', 'GB'] }))).toEqual([
      `row ${betfair.id} (allow[${at}]): betfair in GB is already listed twice`,
    ]);
    expect(problemsOf(withRow('allow', { id: betfair.id, jurisdictions: ['US', 'US-NJ'] }))[0]).toMatch(
      /betfair in US-NJ listed although .* lists all of US/,
    );
    expect(problemsOf(withRow('allow', { id: betfair.id, reviewed_on: '25 November' }))).toEqual([
      `row ${betfair.id} (allow[${at}]) reviewed_on: reviewed_on must be YYYY-MM-DD`,
    ]);
    expect(problemsOf(withRow('allow', { id: betfair.id, sources: [] }))).toEqual([
      `row ${betfair.id} (allow[${at}]) sources: link at least one source`,
    ]);
    expect(problemsOf(withRow('allow', { id: betfair.id, sources: ['Gambling Commission licence'] }))[0]).toMatch(
      /sources\.0/,
    );
  });

  it('refuses blocks, destinations and disclosures that do not fit together', () => {
    expect(
      problemsOf(withRow('blocks', { id: 'br-ghost', jurisdiction: 'BR', operators: ['ghost'], ...REVIEWED })),
    ).toEqual([expect.stringMatching(/^row br-ghost \(blocks\[\d+\]\): unknown operator ghost$/)]);
    expect(
      problemsOf(withRow('blocks', { id: 'xx-all', jurisdiction: 'XX', operators: 'all', ...REVIEWED }))[0],
    ).toMatch(/^row xx-all \(blocks\[\d+\]\) jurisdiction: not a country code/);
    // a regional block where the whole country is listed would leave it shown to visitors whose region is unknown
    const betfair = DOC.allow.find((r) => r.operator === 'betfair')!;
    const whole = { ...withRow('allow', { id: betfair.id, jurisdictions: ['US'] }) };
    expect(
      problemsOf({
        ...whole,
        blocks: [...whole.blocks, { id: 'us-mn-betfair', jurisdiction: 'US-MN', operators: ['betfair'], ...REVIEWED }],
      }),
    ).toContain(
      `row ${betfair.id} (allow[${DOC.allow.indexOf(betfair)}]): betfair listed in all of US although row us-mn-betfair (blocks[${DOC.blocks.length}]) blocks it in US-MN`,
    );
    expect(
      problemsOf(
        withRow('destinations', {
          id: 'bet365-fake',
          operator: 'bet365',
          jurisdictions: ['US-TX'],
          url: 'https://evil.example/',
          web_domains: ['bet365.com'],
          click_id_param: 'clickid',
          ...REVIEWED,
        }),
      ),
    ).toEqual([
      expect.stringMatching(/^row bet365-fake \(destinations\[\d+\]\): evil\.example is not within its web_domains$/),
    ]);
    // Every licensed site names where its programme reads the click id: without it no postback could name a click from there.
    const site = DOC.destinations[0]!;
    const { click_id_param: _, ...unnamed } = site;
    expect(problemsOf({ ...DOC, destinations: [unnamed, ...DOC.destinations.slice(1)] })).toEqual([
      expect.stringMatching(new RegExp(`^row ${site.id} \\(destinations\\[0\\]\\) click_id_param: `)),
    ]);
    expect(problemsOf({ ...DOC, disclosures: DOC.disclosures.filter((d) => d.jurisdiction !== 'GB') })).toContain(
      `row ${betfair.id} (allow[${DOC.allow.indexOf(betfair)}]): no complete disclosure (min_age, text, url) for GB`,
    );
    expect(problemsOf({ ...DOC, revision: 0 })).toEqual(['revision: Too small: expected number to be >=1']);
  });

  it('reports every problem at once, in a message that names the origin', () => {
    const doc = withRow('allow', { id: 'ghost-us', operator: 'ghost', jurisdictions: ['XX'], ...REVIEWED });
    expect(() => compileRules(doc, IDS, 'published compliance rules (revision 9)')).toThrow(
      /^invalid published compliance rules \(revision 9\):\n {2}row ghost-us/,
    );
  });

  it('checks a document given as text as it checks the parsed one; text that is not JSON is one problem', () => {
    const text = JSON.stringify(rulesJson);
    expect(compileRulesText(text, IDS).rows()).toEqual(compileRules(rulesJson, IDS).rows());
    const doc = withRow('allow', { id: 'ghost-us', operator: 'ghost', jurisdictions: ['XX'], ...REVIEWED });
    expect(() => compileRulesText(JSON.stringify(doc), IDS, 'rules.json')).toThrow(
      /^invalid rules\.json:\n {2}row ghost-us/,
    );
    let refused: unknown;
    try {
      compileRulesText(text.slice(0, -1), IDS, 'published compliance rules (revision 9)');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(RulesError);
    expect((refused as RulesError).origin).toBe('published compliance rules (revision 9)');
    expect((refused as RulesError).problems).toEqual([expect.stringMatching(/^not JSON: /)]);
  });
});

describe('reviews that do not go stale', () => {
  it('lists the rows reviewed longer ago than the review period, oldest first, by the clock given', () => {
    const reviewed = RULES.rows()
      .map(({ row }) => row.reviewed_on)
      .sort();
    const newest = Date.parse(`${reviewed.at(-1)!}T00:00:00Z`);
    const oldest = Date.parse(`${reviewed[0]!}T00:00:00Z`);
    expect(overdueRows(RULES, newest, 30)).toEqual([]);
    const later = newest + 31 * 86_400_000;
    const overdue = overdueRows(RULES, later, 30);
    expect(overdue.length).toBe(RULES.rows().length);
    expect(overdue[0]!.reviewedOn).toBe(reviewed[0]);
    expect(overdue[0]!.ageDays).toBe(Math.floor((later - oldest) / 86_400_000));
    // exactly the review period old is not yet overdue
    expect(overdueRows(RULES, newest + 30 * 86_400_000, 30).map((r) => r.reviewedOn)).not.toContain(reviewed.at(-1));
  });
});
