import { describe, expect, it } from 'vitest';
import {
  clickUrl,
  FIELDS,
  formEncode,
  landingUrl,
  sign,
  signLink,
  verifyClick,
  type ClickTarget,
} from '../../src/tracking/click-links.js';

const BASE = 'https://pw.example';
const SECRET = 'click-secret-for-tests-0123456789abcdef';
const EXPIRES = 1_900_000_000; // 2030-03-17T17:46:40Z
const BEFORE = new Date((EXPIRES - 3600) * 1000);

const TARGET: ClickTarget = {
  operatorId: 'kalshi',
  widget: 'event-specific',
  placement: 'fed-december-2026',
  // characters that need encoding: ? & = / :
  destination: 'https://kalshi.com/markets/kxfed?x=1&y=2',
  country: 'US',
  advertiserId: 'acme-media',
  impressionId: 'imp-123',
  expiresAt: EXPIRES,
};

/** The query string of a click URL, without "?". */
function queryOf(url: string): string {
  const u = new URL(url);
  expect(`${u.origin}${u.pathname}`).toBe(`${BASE}/v1/click`);
  return u.search.slice(1);
}

/** Splits a raw query into decoded [key, value] pairs, keeping order and repeats. */
const pairs = (raw: string) => [...new URLSearchParams(raw)];
const join = (ps: Array<[string, string]>) => new URLSearchParams(ps).toString();

/** A different character at the same position (stays printable). */
const flip = (c: string) => (c === 'a' ? 'b' : 'a');

describe('signLink', () => {
  it('gives what sign gives, for each secret, when the query was signed before under another', () => {
    const query = 'o=kalshi&w=broad&p=x&i=imp-1&e=1900000000';
    expect(signLink(SECRET, query)).toBe(sign(SECRET, query));
    expect(signLink(SECRET, query)).toBe(sign(SECRET, query));
    const other = 'another-secret-0123456789abcdefghij';
    expect(signLink(other, query)).toBe(sign(other, query));
    expect(signLink(other, query)).not.toBe(sign(SECRET, query));
    expect(signLink(SECRET, query)).toBe(sign(SECRET, query));
  });
});

describe('clickUrl / verifyClick', () => {
  const query = queryOf(clickUrl(BASE, SECRET, TARGET));

  it('round-trips every field', () => {
    const r = verifyClick(query, SECRET, BEFORE);
    expect(r).toEqual({ ok: true, target: TARGET });
  });

  it('round-trips a minimal target (optional fields absent)', () => {
    const minimal: ClickTarget = {
      operatorId: 'draftkings',
      widget: 'sportsbook',
      placement: 'NBA',
      impressionId: 'imp-9',
      expiresAt: EXPIRES,
    };
    const q = queryOf(clickUrl(BASE, SECRET, minimal));
    const r = verifyClick(q, SECRET, BEFORE);
    expect(r).toEqual({
      ok: true,
      target: { ...minimal, destination: undefined, country: undefined, advertiserId: undefined },
    });
  });

  it('refuses a change to any single character of any parameter value', () => {
    const original = pairs(query);
    let tried = 0;
    for (const [index, [key, value]] of original.entries()) {
      for (let i = 0; i < value.length; i++) {
        const altered = value.slice(0, i) + flip(value[i]!) + value.slice(i + 1);
        const ps = original.map((p, j): [string, string] => (j === index ? [key, altered] : [p[0], p[1]]));
        const r = verifyClick(join(ps), SECRET, BEFORE);
        expect(r.ok, `${key}[${i}] ${value[i]} -> ${flip(value[i]!)}`).toBe(false);
        tried++;
      }
    }
    // every value (signature included) was exercised
    expect(tried).toBe(original.reduce((n, [, v]) => n + v.length, 0));
    expect(original.map(([k]) => k)).toEqual(['o', 'w', 'p', 'd', 'c', 'a', 'i', 'e', 's']);
  });

  it('refuses a change to any character of the raw signature', () => {
    const sig = new URLSearchParams(query).get('s')!;
    // 32 bytes of HMAC-SHA256 in base64url, unpadded
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const head = query.slice(0, query.length - sig.length);
    for (let i = 0; i < sig.length; i++) {
      for (const c of ['A', 'B', '-', '_', '0']) {
        if (c === sig[i]) continue;
        const forged = head + sig.slice(0, i) + c + sig.slice(i + 1);
        expect(verifyClick(forged, SECRET, BEFORE)).toEqual({ ok: false, reason: 'bad_signature' });
      }
    }
  });

  it('refuses an added parameter, known or unknown', () => {
    expect(verifyClick(`${query}&x=1`, SECRET, BEFORE).ok).toBe(false);
    expect(verifyClick(`x=1&${query}`, SECRET, BEFORE).ok).toBe(false);
    // a known field that was not signed
    const minimal = queryOf(
      clickUrl(BASE, SECRET, {
        operatorId: 'kalshi',
        widget: 'broad',
        placement: 'top',
        impressionId: 'i',
        expiresAt: EXPIRES,
      }),
    );
    const withDest = pairs(minimal);
    withDest.splice(3, 0, ['d', 'https://kalshi.com/evil']);
    expect(verifyClick(join(withDest), SECRET, BEFORE).ok).toBe(false);
  });

  it('refuses a removed parameter', () => {
    const original = pairs(query);
    for (const [index, [key]] of original.entries()) {
      const ps = original.filter((_, j) => j !== index);
      const r = verifyClick(join(ps), SECRET, BEFORE);
      expect(r.ok, `without ${key}`).toBe(false);
      if (key === 's') expect(r).toEqual({ ok: false, reason: 'unsigned' });
    }
  });

  it('refuses a repeated signed parameter, with the same or another value', () => {
    const original = pairs(query);
    for (const [key, value] of original) {
      if (key === 's') continue;
      for (const extra of [value, 'other']) {
        const ps: Array<[string, string]> = [...original, [key, extra]];
        expect(verifyClick(join(ps), SECRET, BEFORE).ok, `${key} repeated as ${extra}`).toBe(false);
      }
    }
  });

  it('refuses a repeated signature parameter', () => {
    // "any extra, reordered or repeated parameter changes the query and is refused" (click-links.ts)
    const junk = verifyClick(`${query}&s=junk`, SECRET, BEFORE);
    expect(junk.ok).toBe(false);
  });

  it('refuses reordered parameters', () => {
    const original = pairs(query);
    const swapped = [original[1]!, original[0]!, ...original.slice(2)];
    expect(verifyClick(join(swapped), SECRET, BEFORE).ok).toBe(false);
  });

  it('refuses a link signed with another secret', () => {
    const other = queryOf(clickUrl(BASE, 'another-secret-0123456789abcdefghijkl', TARGET));
    expect(verifyClick(other, SECRET, BEFORE)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyClick(query, 'another-secret-0123456789abcdefghijkl', BEFORE)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('accepts until the expiry second and refuses after it', () => {
    expect(verifyClick(query, SECRET, new Date(EXPIRES * 1000 - 1)).ok).toBe(true);
    expect(verifyClick(query, SECRET, new Date(EXPIRES * 1000)).ok).toBe(true);
    expect(verifyClick(query, SECRET, new Date(EXPIRES * 1000 + 1))).toEqual({ ok: false, reason: 'expired' });
    expect(verifyClick(query, SECRET, new Date((EXPIRES + 86_400) * 1000))).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses an unsigned or empty query', () => {
    expect(verifyClick('', SECRET, BEFORE)).toEqual({ ok: false, reason: 'unsigned' });
    expect(verifyClick('o=kalshi&w=broad', SECRET, BEFORE)).toEqual({ ok: false, reason: 'unsigned' });
  });

  it('refuses a correctly signed link with an unknown widget class as malformed', () => {
    const bad = queryOf(clickUrl(BASE, SECRET, { ...TARGET, widget: 'popup' as ClickTarget['widget'] }));
    expect(verifyClick(bad, SECRET, BEFORE)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('landingUrl', () => {
  it('ignores utm_* parameters appended anywhere, and still refuses other additions', () => {
    const query = queryOf(clickUrl(BASE, SECRET, TARGET));
    expect(verifyClick(`${query}&utm_source=newsletter&utm_medium=email`, SECRET, BEFORE)).toEqual({
      ok: true,
      target: TARGET,
    });
    expect(verifyClick(`utm_campaign=x&${query}`, SECRET, BEFORE)).toEqual({ ok: true, target: TARGET });
    expect(verifyClick(`${query}&utm_source=a&x=1`, SECRET, BEFORE).ok).toBe(false);
    expect(verifyClick(`${query}&utmx=1`, SECRET, BEFORE).ok).toBe(false);
  });

  it('never signs a destination that carries userinfo', () => {
    const signed = verifyClick(
      queryOf(clickUrl(BASE, SECRET, { ...TARGET, destination: 'https://user:pw@kalshi.com/markets/x' })),
      SECRET,
      BEFORE,
    );
    expect(signed.ok && signed.target.destination).toBe(undefined);
  });

  const target = (destination?: string): ClickTarget => ({ ...TARGET, destination });
  const KALSHI_URL = 'https://kalshi.com/sign-up';
  const KALSHI = { affiliateUrl: KALSHI_URL, webDomains: ['kalshi.com'], destinations: [] };

  it('lands on a contract page of the operator domain over https', () => {
    expect(landingUrl(target('https://kalshi.com/markets/x'), KALSHI)).toBe('https://kalshi.com/markets/x');
    expect(landingUrl(target('https://www.kalshi.com/markets/x?y=1'), KALSHI)).toBe(
      'https://www.kalshi.com/markets/x?y=1',
    );
    // The affiliate URL may sit on a tracking host; the contract page is judged by webDomains.
    expect(
      landingUrl(target('https://kalshi.com/m'), {
        affiliateUrl: 'https://track.example/aff?id=1',
        webDomains: ['kalshi.com'],
        destinations: [],
      }),
    ).toBe('https://kalshi.com/m');
    expect(landingUrl(target('https://evil-kalshi.com/m'), KALSHI)).toBe(KALSHI_URL);
  });

  it.each([
    ['https://evil.example/'],
    ['http://kalshi.com/markets/x'],
    ['javascript:alert(1)'],
    ['https://kalshi.com.evil.example/markets/x'],
    ['https://evilkalshi.com/markets/x'],
    ['https://kalshi.com@evil.example/'],
    ['https://user@kalshi.com/markets/x'],
    ['https://user:secret@kalshi.com/markets/x'],
    ['//evil.example/x'],
    ['not a url'],
  ])('falls back to the affiliate URL for %s', (destination) => {
    expect(landingUrl(target(destination), KALSHI)).toBe(KALSHI_URL);
  });

  it('falls back to the affiliate URL when there is no destination', () => {
    expect(landingUrl(target(undefined), KALSHI)).toBe(KALSHI_URL);
  });

  it('does not treat a public suffix such as co.uk as the operator domain', () => {
    // An operator on a two-label public suffix: any other *.co.uk site is not its domain.
    const affiliate = 'https://www.examplebet.co.uk/join';
    const op = { affiliateUrl: affiliate, webDomains: ['examplebet.co.uk'], destinations: [] };
    expect(landingUrl(target('https://www.examplebet.co.uk/markets/1'), op)).toBe(
      'https://www.examplebet.co.uk/markets/1',
    );
    expect(landingUrl(target('https://evil.co.uk/phish'), op)).toBe(affiliate);
  });
});

describe('formEncode', () => {
  const bySearchParams = (v: string) => new URLSearchParams([['', v]]).toString().slice(1);

  it('writes every code unit as URLSearchParams does, lone surrogates included', () => {
    const wrong: number[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      const v = `a${String.fromCharCode(c)}z`;
      if (formEncode(v) !== bySearchParams(v)) wrong.push(c);
    }
    expect(wrong).toEqual([]);
  });

  it('writes astral characters, URLs and spaces as URLSearchParams does', () => {
    for (const v of [
      '😀 x',
      'https://kalshi.com/markets/kxfed/fed-rate?x=1&y=(2)!~*',
      "O'Neil & sons",
      'a+b=c%20d',
      '\ud83d\ude00\ud800',
      '',
    ])
      expect(formEncode(v)).toBe(bySearchParams(v));
  });

  it('gives clickUrl the query URLSearchParams would, so verifyClick accepts it', () => {
    const target: ClickTarget = {
      ...TARGET,
      placement: "fed's (dec) rate ~ 2026!",
      destination: 'https://kalshi.com/markets/kxfed?ticker=KXFED-26DEC&q=a b',
      impressionId: 'imp 1',
    };
    const query = queryOf(clickUrl(BASE, SECRET, target));
    const expected = new URLSearchParams();
    for (const [short, long] of FIELDS) expected.set(short, String(target[long]));
    expect(query.slice(0, query.lastIndexOf('&s='))).toBe(expected.toString());
    expect(verifyClick(query, SECRET, BEFORE)).toMatchObject({
      ok: true,
      target: { placement: target.placement, destination: target.destination },
    });
  });
});
