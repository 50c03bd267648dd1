/**
 * The pure parts of <predictwire-widget>: attributes to request, markup from real widget builders
 * (escaped, links sponsored, badges where flagged), the countdown and the backoff. The element in a
 * browser is tested in test/e2e/embed-browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { snippet, DEMO_WIDGETS } from '../../src/embed/demo-page.js';
import { renderEvent } from '../../src/embed/element/event.js';
import { backoffMs } from '../../src/embed/element/feed.js';
import { esc } from '../../src/embed/element/html.js';
import { clock } from '../../src/embed/element/live.js';
import { widgetRequest, type WidgetRequest } from '../../src/embed/element/request.js';
import type { MarketEvent } from '../../src/model/index.js';
import { buildEventWidget } from '../../src/widgets/event-widget.js';
import { makeContext } from './_widget-fixtures.js';

const request = (attrs: Record<string, string>, base = 'https://api.example') => {
  const r = widgetRequest((n) => attrs[n] ?? null, base);
  if (typeof r === 'string') throw new Error(r);
  return r as WidgetRequest;
};

describe('widgetRequest', () => {
  it('maps each kind\'s attributes to its query parameters, on the script\'s origin', () => {
    const r = request({ kind: 'event', slug: 'fed-december-2026', 'display-format': 'implied_pct', 'fallback-geo': 'GB', 'advertiser-id': 'acme', limit: '3' });
    const url = new URL(r.url);
    expect(url.origin + url.pathname).toBe('https://api.example/v1/widgets/event');
    // limit belongs to the broad widget: not sent here.
    expect(Object.fromEntries(url.searchParams)).toEqual({ slug: 'fed-december-2026', display_format: 'implied_pct', fallback_geo: 'GB', advertiser_id: 'acme' });
    expect(Object.fromEntries(new URL(request({ kind: 'broad', limit: '3', currency: 'EUR' }).url).searchParams)).toEqual({ limit: '3', currency: 'EUR' });
    expect(Object.fromEntries(new URL(request({ kind: 'sportsbook', league: 'NBA', 'team-context': 'celtics' }).url).searchParams)).toEqual({ league: 'NBA', team_context: 'celtics' });
    expect(Object.fromEntries(new URL(request({ kind: 'live-market', asset: 'ETH', horizon: '15' }).url).searchParams)).toEqual({ asset: 'ETH', horizon_minutes: '15' });
  });

  it('uses api-base when set, sends the locale as Accept-Language', () => {
    const r = request({ kind: 'broad', 'api-base': 'http://localhost:8080', locale: 'de' });
    expect(r.url).toBe('http://localhost:8080/v1/widgets/broad?');
    expect(r.headers).toEqual({ 'accept-language': 'de' });
  });

  it('subscribes live-market and event widgets to their topic, passing fallback_geo on the socket URL', () => {
    const live = request({ kind: 'live-market', asset: 'btc', horizon: '15', 'fallback-geo': 'JP' });
    expect(live.ws).toEqual({ url: 'wss://api.example/v1/ws?fallback_geo=JP', topic: 'live-market:BTC:15', payloadUsable: true });
    expect(request({ kind: 'live-market' }).ws?.topic).toBe('live-market:BTC:5');
    // Pushed event payloads are in cents without an advertiser: anything else refetches on a push.
    expect(request({ kind: 'event', slug: 'a-b' }, 'http://h:1').ws).toEqual({ url: 'ws://h:1/v1/ws', topic: 'event:a-b', payloadUsable: true });
    expect(request({ kind: 'event', slug: 'a-b', 'display-format': 'decimal' }).ws?.payloadUsable).toBe(false);
    expect(request({ kind: 'event', slug: 'a-b', 'advertiser-id': 'acme' }).ws?.payloadUsable).toBe(false);
    expect(request({ kind: 'broad' }).ws).toBeUndefined();
    expect(request({ kind: 'sportsbook', league: 'NBA' }).ws).toBeUndefined();
  });

  it('names the problem when the kind is missing or unknown', () => {
    expect(widgetRequest(() => null, 'https://api.example')).toMatch(/Unknown widget kind ""/);
    expect(widgetRequest((n) => (n === 'kind' ? 'odds' : null), 'https://api.example')).toMatch(/"odds".*event, broad, sportsbook or live-market/);
  });
});

describe('renderEvent', () => {
  const event: MarketEvent = {
    slug: 'fed-december-2026',
    question: 'Will the Fed cut? <img src=x onerror=alert(1)>',
    category: 'economics',
    closesAt: '2026-12-16T19:00:00.000Z',
    outcomes: [
      {
        name: 'Cut "25bp"',
        quotes: [
          { operatorId: 'kalshi', yesPrice: 0.6, volume24hUsd: 300, marketUrl: 'https://kalshi.com/markets/a' },
          { operatorId: 'polymarket', yesPrice: 0.7, volume24hUsd: 100, marketUrl: 'https://polymarket.com/event/a' },
        ],
      },
    ],
  };
  const payload = buildEventWidget(event, '2026-11-22T14:00:00.000Z', 'cents', makeContext());
  const html = renderEvent(payload);

  it('escapes every payload string', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain(esc(event.question));
    expect(html).toContain('Cut &#34;25bp&#34;');
  });

  it('links every operator through its signed click URL, sponsored, in a new tab, badged where flagged', () => {
    const pool = payload.outcomes[0]!.comparison_pool;
    const links = [...html.matchAll(/<a class="cta" href="([^"]+)" target="_blank" rel="sponsored noopener"/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));
    expect(links).toEqual(pool.map((c) => c.deep_link));
    const badged = [...html.matchAll(/<tr data-operator="([^"]+)"[^>]*><th scope="row">[^<]*<span class="badge">Best Odds/g)].map((m) => m[1]);
    expect(badged).toEqual(pool.filter((c) => c.is_best_odds).map((c) => c.operator_id));
    expect(badged.length).toBeGreaterThan(0);
  });

  it('never turns a non-http link into a live one', () => {
    const hostile = { ...payload, outcomes: [{ ...payload.outcomes[0]!, comparison_pool: [{ ...payload.outcomes[0]!.comparison_pool[0]!, deep_link: 'javascript:alert(1)' }] }] };
    expect(renderEvent(hostile)).toContain('href="#"');
  });
});

describe('countdown and backoff', () => {
  it('shows minutes and seconds, never below zero', () => {
    expect([clock(245), clock(59.6), clock(0), clock(-3)]).toEqual(['4:05', '1:00', '0:00', '0:00']);
  });

  it('doubles per failure up to the cap, with jitter between half and all of it', () => {
    for (let failures = 1; failures <= 12; failures++) {
      const full = Math.min(300, 5 * 2 ** (failures - 1)) * 1000;
      const d = backoffMs(5, failures, 300);
      expect(d).toBeGreaterThanOrEqual(full / 2);
      expect(d).toBeLessThanOrEqual(full);
    }
  });
});

describe('demo snippets', () => {
  it('are the script and the element, two lines, for every kind', () => {
    expect(DEMO_WIDGETS.map((w) => w.attributes.kind)).toEqual(['event', 'broad', 'sportsbook', 'live-market']);
    expect(snippet('https://api.example', DEMO_WIDGETS[3]!, 'dark')).toBe(
      '<script src="https://api.example/v1/embed.js" async></script>\n<predictwire-widget kind="live-market" asset="BTC" horizon="15" theme="dark"></predictwire-widget>',
    );
  });
});
