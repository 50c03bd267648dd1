import { describe, expect, it } from 'vitest';
import { operatorSites } from '../../src/catalog/operator-sites.js';
import { OPERATORS, operatorById } from '../../src/catalog/operators.js';
import { isAutomatedClick, isBot, isPrefetch } from '../../src/tracking/bot-filter.js';
import {
  affiliateUrlWithSubIds,
  clickUrl,
  landingUrl,
  verifyClick,
  type ClickTarget,
} from '../../src/tracking/click-links.js';
import { visitorId } from '../../src/tracking/click-counter.js';

const SECRET = 'click-tracking-test-secret-0123456789abc';
const NOW = new Date('2026-11-22T14:00:00.000Z');
const TARGET: ClickTarget = {
  operatorId: 'draftkings',
  widget: 'broad',
  placement: 'rank-2',
  country: 'US',
  advertiserId: 'acme-media',
  impressionId: 'imp-9',
  expiresAt: Math.floor(NOW.getTime() / 1000) + 600,
};

describe('affiliate landing with sub-ids', () => {
  it('adds the operator’s own sub-id parameters from the signed target', () => {
    const dk = operatorSites(operatorById('draftkings')!);
    const landed = new URL(landingUrl(TARGET, dk));
    expect(`${landed.origin}${landed.pathname}`).toBe(dk.affiliateUrl);
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      aff_sub: 'imp-9',
      aff_sub2: 'acme-media',
      aff_sub3: 'rank-2',
      aff_sub4: 'US',
    });
  });

  it('keeps parameters the affiliate URL already has and skips values the link lacks', () => {
    const poly = operatorSites(operatorById('polymarket')!);
    const landed = new URL(landingUrl({ ...TARGET, operatorId: 'polymarket', advertiserId: undefined }, poly));
    expect(Object.fromEntries(landed.searchParams)).toEqual({ via: 'predictwire', sub_id: 'imp-9', sub_id3: 'US' });
    expect(affiliateUrlWithSubIds(TARGET, 'https://x.example/a?b=1', undefined)).toBe('https://x.example/a?b=1');
  });

  it('lands contract-page deep links with the same sub-ids as the affiliate URL', () => {
    const kalshi = operatorSites(operatorById('kalshi')!);
    const deep = { ...TARGET, operatorId: 'kalshi', destination: 'https://kalshi.com/markets/kxfed' };
    const landed = new URL(landingUrl(deep, kalshi));
    expect(`${landed.origin}${landed.pathname}`).toBe('https://kalshi.com/markets/kxfed');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      subId1: TARGET.impressionId,
      subId2: TARGET.advertiserId,
      subId3: TARGET.placement,
    });
  });

  it("lands each visitor on the site licensed in the link's jurisdiction", () => {
    // Licensed sites come from the compliance rules' destinations (compliance/rules.json).
    const bet365 = operatorSites(operatorById('bet365')!);
    const betmgm = operatorSites(operatorById('betmgm')!);
    const fanduel = operatorSites(operatorById('fanduel')!);
    const host = (url: string) => new URL(url).host;
    expect(host(landingUrl({ ...TARGET, operatorId: 'bet365', country: 'BR' }, bet365))).toBe('www.bet365.bet.br');
    expect(host(landingUrl({ ...TARGET, operatorId: 'bet365', country: 'GB' }, bet365))).toBe('www.bet365.com');
    expect(host(landingUrl({ ...TARGET, operatorId: 'betmgm', country: 'GB' }, betmgm))).toBe('www.betmgm.co.uk');
    expect(host(landingUrl({ ...TARGET, operatorId: 'betmgm', country: 'CA-ON' }, betmgm))).toBe('sports.on.betmgm.ca');
    expect(host(landingUrl({ ...TARGET, operatorId: 'betmgm', country: 'US-NJ' }, betmgm))).toBe('www.nj.betmgm.com');
    expect(host(landingUrl({ ...TARGET, operatorId: 'betmgm', country: 'US-TN' }, betmgm))).toBe(
      'sports.tn.betmgm.com',
    );
    expect(host(landingUrl({ ...TARGET, operatorId: 'bet365', country: 'US-PA' }, bet365))).toBe('www.pa.bet365.com');
    // a state with no site of its own listed lands on the default
    expect(host(landingUrl({ ...TARGET, operatorId: 'betmgm', country: 'US-KY' }, betmgm))).toBe('sports.betmgm.com');
    expect(host(landingUrl({ ...TARGET, operatorId: 'fanduel', country: 'CA-ON' }, fanduel))).toBe(
      'on.sportsbook.fanduel.ca',
    );
    // a deep link must stay within the domains of the site licensed there
    expect(
      host(
        landingUrl({ ...TARGET, operatorId: 'bet365', country: 'BR', destination: 'https://www.bet365.com/x' }, bet365),
      ),
    ).toBe('www.bet365.bet.br');
  });

  it('every catalog operator lands on its own affiliate host', () => {
    for (const op of OPERATORS) {
      const landed = new URL(landingUrl({ ...TARGET, operatorId: op.id }, operatorSites(op)));
      expect(landed.host).toBe(new URL(op.affiliateUrl).host);
    }
  });

  it('a link carries the country, and changing any character is refused', () => {
    const url = clickUrl('https://pw.example', SECRET, TARGET);
    const query = new URL(url).search.slice(1);
    expect(verifyClick(query, SECRET, NOW)).toEqual({ ok: true, target: { ...TARGET, destination: undefined } });
    for (let i = 0; i < query.length; i++) {
      const c = query[i]!;
      const altered = query.slice(0, i) + (c === 'A' ? 'B' : 'A') + query.slice(i + 1);
      expect(verifyClick(altered, SECRET, NOW).ok, altered).toBe(false);
    }
    expect(verifyClick(query, SECRET, new Date((TARGET.expiresAt + 1) * 1000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });
});

describe('bots and prefetches', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['facebookexternalhit/1.1'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.0.0 Safari/537.36'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
    ['Pingdom.com_bot_version_1.4'],
    [''],
    [undefined],
  ])('%j is a bot', (ua) => expect(isBot(ua)).toBe(true));

  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0'],
  ])('%j is a person', (ua) => {
    expect(isBot(ua)).toBe(false);
    expect(isAutomatedClick(ua)).toBe(false);
  });

  it('counts an HTTP library as an integration for impressions, never as a person for clicks', () => {
    for (const ua of [
      'curl/8.5.0',
      'python-requests/2.31.0',
      'node',
      'axios/1.7.2',
      'Go-http-client/1.1',
      'Wget/1.21.4',
    ]) {
      expect(isBot(ua), ua).toBe(false);
      expect(isAutomatedClick(ua), ua).toBe(true);
    }
    for (const ua of ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', '', undefined])
      expect(isAutomatedClick(ua)).toBe(true);
  });

  it('recognizes prefetch headers and HEAD', () => {
    expect(isPrefetch('GET', { purpose: 'prefetch' })).toBe(true);
    expect(isPrefetch('GET', { 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(isPrefetch('GET', { 'x-moz': 'prefetch' })).toBe(true);
    expect(isPrefetch('HEAD', {})).toBe(true);
    expect(isPrefetch('GET', { accept: 'text/html' })).toBe(false);
  });

  it('visitor ids are stable, short and reveal no address', () => {
    const a = visitorId('203.0.113.9');
    expect(a).toBe(visitorId('203.0.113.9'));
    expect(a).not.toBe(visitorId('203.0.113.10'));
    expect(a).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(a).not.toContain('203');
  });
});
