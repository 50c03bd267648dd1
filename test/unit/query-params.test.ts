import { describe, expect, it } from 'vitest';
import { EventWidgetQuery, SpecificEventQuery, SportsbookWidgetQuery } from '../../src/http/params.js';
import { PostbackQuery } from '../../src/http/routes/postback.js';
import { Problem } from '../../src/model/problem.js';
import { MEMO_LIMIT, MEMO_MAX_CHARS, parseQuery } from '../../src/http/query.js';

/** Runs `fn`, expecting a Problem, and returns it. */
function problemOf(fn: () => unknown): Problem {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(Problem);
    return err as Problem;
  }
  throw new Error('expected a Problem to be thrown');
}

const LIMIT_MSG = 'must be an integer from 1 to 100';

describe('parseQuery with EventWidgetQuery', () => {
  it('accepts a slug and defaults display_format to cents', () => {
    expect(parseQuery(EventWidgetQuery, 'slug=fed-december-2026')).toEqual({
      slug: 'fed-december-2026',
      display_format: 'cents',
    });
  });

  it.each(['cents', 'implied_pct', 'decimal'])('accepts display_format=%s', (f) => {
    expect(parseQuery(EventWidgetQuery, `slug=a-b&display_format=${f}`).display_format).toBe(f);
  });

  it('a missing slug is a 400 invalid_parameter problem with one error', () => {
    const p = problemOf(() => parseQuery(EventWidgetQuery, ''));
    expect(p.status).toBe(400);
    expect(p.code).toBe('invalid_parameter');
    expect(p.errors).toEqual([{ param: 'slug', message: 'is required' }]);
    const json = p.toJSON();
    expect(Object.keys(json).sort()).toEqual(['code', 'detail', 'errors', 'status', 'title', 'type']);
    expect(json.status).toBe(400);
    expect(json.code).toBe('invalid_parameter');
    expect(json.errors).toEqual([{ param: 'slug', message: 'is required' }]);
    expect(json.title).toBe('Invalid parameter');
    expect(json.type).toMatch(/^https?:\/\/\S+$/);
    expect(json.detail).toContain('slug');
    // The JSON form is what goes on the wire.
    expect(JSON.parse(JSON.stringify(p))).toEqual(json);
  });

  it('refuses a bad display_format and names the allowed values', () => {
    const p = problemOf(() => parseQuery(EventWidgetQuery, 'slug=a-b&display_format=fraction'));
    expect(p.status).toBe(400);
    expect(p.errors).toEqual([{ param: 'display_format', message: 'must be one of cents, implied_pct, decimal' }]);
  });

  it('refuses a slug that is not lowercase words joined by hyphens', () => {
    for (const slug of ['Fed-December', 'a--b', '-a', 'a_b', 'a%20b']) {
      const p = problemOf(() => parseQuery(EventWidgetQuery, `slug=${slug}`));
      expect(p.errors.map((e) => e.param)).toEqual(['slug']);
    }
  });

  it('lists every bad parameter at once', () => {
    const p = problemOf(() => parseQuery(EventWidgetQuery, 'display_format=bad'));
    const sorted = [...p.errors].sort((a, b) => a.param.localeCompare(b.param));
    expect(sorted).toEqual([
      { param: 'display_format', message: 'must be one of cents, implied_pct, decimal' },
      { param: 'slug', message: 'is required' },
    ]);
  });

  it('takes the first value of a repeated parameter and ignores unknown ones', () => {
    expect(parseQuery(EventWidgetQuery, 'slug=first-one&slug=BAD%20SLUG&_=1732284000&utm_source=x')).toEqual({
      slug: 'first-one',
      display_format: 'cents',
    });
    expect(parseQuery(EventWidgetQuery, 'slug=a&display_format=decimal&display_format=nope').display_format).toBe(
      'decimal',
    );
    // and a bad first value is not rescued by a good second one
    const p = problemOf(() => parseQuery(EventWidgetQuery, 'slug=a&display_format=nope&display_format=decimal'));
    expect(p.errors.map((e) => e.param)).toEqual(['display_format']);
  });
});

describe('parseQuery with SportsbookWidgetQuery', () => {
  const ALLOWED = 'must be one of NCAAB, NBA, NFL, EPL';

  it('accepts each league', () => {
    for (const league of ['NCAAB', 'NBA', 'NFL', 'EPL']) {
      expect(parseQuery(SportsbookWidgetQuery, `league=${league}`)).toEqual({ league });
    }
  });

  it('requires league', () => {
    const p = problemOf(() => parseQuery(SportsbookWidgetQuery, 'team_context=Celtics'));
    expect(p.status).toBe(400);
    expect(p.code).toBe('invalid_parameter');
    expect(p.errors).toEqual([{ param: 'league', message: 'is required' }]);
  });

  it.each(['nba', 'Nba', 'NHL', ''])('refuses league=%j and lists the allowed values', (league) => {
    const p = problemOf(() => parseQuery(SportsbookWidgetQuery, `league=${league}`));
    expect(p.errors).toEqual([{ param: 'league', message: ALLOWED }]);
  });

  it('trims team_context and refuses a blank one', () => {
    expect(parseQuery(SportsbookWidgetQuery, 'league=NBA&team_context=%20Celtics%20')).toEqual({
      league: 'NBA',
      team_context: 'Celtics',
    });
    const p = problemOf(() => parseQuery(SportsbookWidgetQuery, 'league=NBA&team_context=%20%20'));
    expect(p.errors.map((e) => e.param)).toEqual(['team_context']);
  });

  it('validates advertiser_id', () => {
    expect(parseQuery(SportsbookWidgetQuery, 'league=NBA&advertiser_id=acme-media').advertiser_id).toBe('acme-media');
    const p = problemOf(() => parseQuery(SportsbookWidgetQuery, 'league=NBA&advertiser_id=A!'));
    expect(p.errors.map((e) => e.param)).toEqual(['advertiser_id']);
  });
});

describe('parseQuery with SpecificEventQuery (limit 1..100)', () => {
  it('limit is optional', () => {
    expect(parseQuery(SpecificEventQuery, '')).toEqual({});
  });

  it.each([
    ['1', 1],
    ['100', 100],
    ['42', 42],
  ])('accepts limit=%s', (raw, n) => {
    expect(parseQuery(SpecificEventQuery, `limit=${raw}`)).toEqual({ limit: n });
  });

  it.each(['0', '101', '1.5', 'abc', '', '-1', '1e2', '+5', '10x', ' 5', '9999999'])('refuses limit=%j', (raw) => {
    const p = problemOf(() => parseQuery(SpecificEventQuery, `limit=${encodeURIComponent(raw)}`));
    expect(p.status).toBe(400);
    expect(p.code).toBe('invalid_parameter');
    expect(p.errors).toEqual([{ param: 'limit', message: LIMIT_MSG }]);
  });

  it('takes the first of repeated limits', () => {
    expect(parseQuery(SpecificEventQuery, 'limit=5&limit=abc')).toEqual({ limit: 5 });
    expect(problemOf(() => parseQuery(SpecificEventQuery, 'limit=abc&limit=5')).errors).toEqual([
      { param: 'limit', message: LIMIT_MSG },
    ]);
  });
});

describe('parseQuery memo', () => {
  it('keeps a query string parsed while thousands of others come between, and forgets the least recent past its limit', () => {
    const first = parseQuery(SportsbookWidgetQuery, 'league=NBA&odds_format=decimal&memo-test=first');
    for (let i = 0; i < MEMO_LIMIT - 1; i++) parseQuery(SportsbookWidgetQuery, `league=NFL&memo-test=${i}`);
    // Still among the last MEMO_LIMIT: the same frozen object, not parsed again.
    expect(parseQuery(SportsbookWidgetQuery, 'league=NBA&odds_format=decimal&memo-test=first')).toBe(first);
    for (let i = 0; i < MEMO_LIMIT; i++) parseQuery(SportsbookWidgetQuery, `league=EPL&memo-test=${i}`);
    const again = parseQuery(SportsbookWidgetQuery, 'league=NBA&odds_format=decimal&memo-test=first');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it('holds fewer query strings when they are long (junk parameters): its keys stay within MEMO_MAX_CHARS', () => {
    const first = parseQuery(SportsbookWidgetQuery, 'league=NBA&memo-test=long-first');
    const junk = 'x'.repeat(4_000);
    // Far fewer than MEMO_LIMIT entries, but more characters than the memo keeps.
    const count = Math.ceil(MEMO_MAX_CHARS / junk.length) + 1;
    expect(count).toBeLessThan(MEMO_LIMIT);
    for (let i = 0; i < count; i++) parseQuery(SportsbookWidgetQuery, `league=NFL&cb=${i}${junk}`);
    expect(parseQuery(SportsbookWidgetQuery, 'league=NBA&memo-test=long-first')).not.toBe(first);
  });
});

describe('parseQuery with PostbackQuery', () => {
  const head = `operator=kalshi&click_id=${'A'.repeat(27)}`;
  const sig = `sig=${'0'.repeat(64)}`;

  it('refuses a decimal the currency does not have, listed beside every other bad parameter', () => {
    expect(parseQuery(PostbackQuery, `${head}&event=deposit&event_id=d1&amount=19.99&currency=GBP&${sig}`).amount).toBe(
      '19.99',
    );
    const p = problemOf(() =>
      parseQuery(PostbackQuery, `${head}&event=deposit&event_id=d2&amount=5.5&commission=1.25&currency=JPY&${sig}`),
    );
    expect(p.status).toBe(400);
    expect(p.errors).toEqual([
      { param: 'amount', message: 'has more decimals than JPY has' },
      { param: 'commission', message: 'has more decimals than JPY has' },
    ]);
    const both = problemOf(() =>
      parseQuery(PostbackQuery, `${head}&event=deposit&event_id=bad%20id&amount=5.5&currency=JPY&${sig}`),
    );
    expect(both.errors.map((e) => e.param)).toEqual(['event_id', 'amount']);
  });
});
