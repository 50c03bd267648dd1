/**
 * The pure parts of <predictwire-widget>: attributes to request, markup from real widget builders
 * (escaped, links sponsored, badges where flagged), its interface text in each catalog language, the
 * countdown and the backoff. The element in a browser is tested in test/e2e/embed-browser.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { demoPage, demoVariants, demoWidgets, snippet } from '../../src/embed/demo-page.js';
import { buildEvents } from '../../src/sources/simulator/events.js';
import { renderEvent, TOP } from '../../src/embed/element/event.js';
import { backoffMs } from '../../src/embed/element/socket.js';
import { esc, telUri } from '../../src/embed/element/html.js';
import { LABELS, LANGS, labelsFor, type Labels } from '../../src/embed/element/labels.js';
import { clock, renderLive } from '../../src/embed/element/live.js';
import { widgetRequest, type WidgetRequest } from '../../src/embed/element/request.js';
import { localNumber } from '../../src/embed/element/format.js';
import { isEmpty, renderView, type Payload, type ViewState } from '../../src/embed/element/view.js';
import type { LeagueData, MarketEvent, MetricsData } from '../../src/model/index.js';
import { buildBroadWidget } from '../../src/widgets/broad-widget.js';
import { buildEventHistory } from '../../src/widgets/event-history.js';
import { buildEventWidget } from '../../src/widgets/event-widget.js';
import { pointOf } from '../../src/store/price-history.js';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { buildSportsbookWidget } from '../../src/widgets/sportsbook-widget.js';
import { makeContext } from './_widget-fixtures.js';

const EN = LABELS.en;

const request = (attrs: Record<string, string>, base = 'https://api.example') => {
  const r = widgetRequest((n) => attrs[n] ?? null, base);
  if (typeof r === 'string') throw new Error(r);
  return r as WidgetRequest;
};

describe('widgetRequest', () => {
  it("maps each kind's attributes to its query parameters, on the script's origin", () => {
    const r = request({
      kind: 'event',
      slug: 'fed-december-2026',
      'display-format': 'implied_pct',
      'fallback-geo': 'GB',
      'advertiser-id': 'acme',
      limit: '3',
    });
    const url = new URL(r.url);
    expect(url.origin + url.pathname).toBe('https://api.example/v1/widgets/event');
    // limit belongs to the broad widget: not sent here.
    expect(Object.fromEntries(url.searchParams)).toEqual({
      slug: 'fed-december-2026',
      display_format: 'implied_pct',
      fallback_geo: 'GB',
      advertiser_id: 'acme',
    });
    expect(
      Object.fromEntries(new URL(request({ kind: 'broad', limit: '3', currency: 'EUR' }).url).searchParams),
    ).toEqual({ limit: '3', currency: 'EUR' });
    expect(
      Object.fromEntries(
        new URL(request({ kind: 'sportsbook', league: 'NBA', 'team-context': 'celtics' }).url).searchParams,
      ),
    ).toEqual({ league: 'NBA', team_context: 'celtics' });
    expect(
      Object.fromEntries(new URL(request({ kind: 'live-market', asset: 'ETH', horizon: '15' }).url).searchParams),
    ).toEqual({ asset: 'ETH', horizon_minutes: '15' });
  });

  it('uses api-base when set, sends the locale as Accept-Language', () => {
    const r = request({ kind: 'broad', 'api-base': 'http://localhost:8080', locale: 'de' });
    expect(r.url).toBe('http://localhost:8080/v1/widgets/broad?');
    expect(r.headers).toEqual({ 'accept-language': 'de' });
  });

  it('subscribes live-market and event widgets to their topic, passing fallback_geo on the socket URL', () => {
    const live = request({ kind: 'live-market', asset: 'btc', horizon: '15', 'fallback-geo': 'JP' });
    expect(live.ws).toEqual({
      url: 'wss://api.example/v1/ws?fallback_geo=JP',
      topic: 'live-market:BTC:15',
      payloadUsable: true,
    });
    expect(request({ kind: 'live-market' }).ws?.topic).toBe('live-market:BTC:5');
    // A display format other than cents is its own topic; pushed payloads carry no advertiser, so
    // only a widget with one fetches its own on a push. The locale changes no pushed payload.
    expect(request({ kind: 'event', slug: 'a-b' }, 'http://h:1').ws).toEqual({
      url: 'ws://h:1/v1/ws',
      topic: 'event:a-b',
      payloadUsable: true,
    });
    expect(request({ kind: 'event', slug: 'a-b', 'display-format': 'cents' }).ws?.topic).toBe('event:a-b');
    expect(request({ kind: 'event', slug: 'a-b', 'display-format': 'decimal', locale: 'de' }).ws).toMatchObject({
      topic: 'event:a-b:decimal',
      payloadUsable: true,
    });
    expect(request({ kind: 'event', slug: 'a-b', 'advertiser-id': 'acme' }).ws?.payloadUsable).toBe(false);
    expect(request({ kind: 'broad' }).ws).toBeUndefined();
    expect(request({ kind: 'sportsbook', league: 'NBA' }).ws).toBeUndefined();
  });

  it('names the problem for the developer when the kind is missing or unknown', () => {
    expect(widgetRequest(() => null, 'https://api.example')).toMatch(/unknown kind ""/);
    expect(widgetRequest((n) => (n === 'kind' ? 'odds' : null), 'https://api.example')).toMatch(
      /"odds".*event, broad, sportsbook or live-market/,
    );
  });

  it('asks the sportsbook for the odds-format attribute', () => {
    expect(
      new URL(request({ kind: 'sportsbook', league: 'EPL', 'odds-format': 'fractional' }).url).searchParams.get(
        'odds_format',
      ),
    ).toBe('fractional');
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
  const html = renderEvent(payload, EN, undefined);

  it('escapes every payload string', () => {
    expect(html).not.toContain('<img');
    expect(html).toContain(esc(event.question));
    expect(html).toContain('Cut &#34;25bp&#34;');
  });

  it('links every operator through its signed click URL, sponsored, in a new tab, badged where flagged', () => {
    const pool = payload.outcomes[0]!.comparison_pool;
    const links = [...html.matchAll(/<a class="cta" href="([^"]+)" target="_blank" rel="sponsored noopener"/g)].map(
      (m) => m[1]!.replace(/&#38;/g, '&'),
    );
    expect(links).toEqual(pool.map((c) => c.deep_link));
    const badged = [
      ...html.matchAll(/<tr data-operator="([^"]+)"[^>]*><th scope="row">[^<]*<span class="badge">Best Odds/g),
    ].map((m) => m[1]);
    expect(badged).toEqual(pool.filter((c) => c.is_best_odds).map((c) => c.operator_id));
    expect(badged.length).toBeGreaterThan(0);
  });

  it('never turns a non-http link into a live one', () => {
    const hostile = {
      ...payload,
      outcomes: [
        {
          ...payload.outcomes[0]!,
          comparison_pool: [{ ...payload.outcomes[0]!.comparison_pool[0]!, deep_link: 'javascript:alert(1)' }],
        },
      ],
    };
    expect(renderEvent(hostile, EN, undefined)).toContain('href="#"');
  });
});

// ------------------------------------------------------------------ the widget's own language

const CTX = makeContext();
const SOON = '2026-11-22T14:00:00.000Z';

/** One payload of each kind, from the real builders (live by hand: its builder needs a running window). */
function payloads(lang: Labels['lang']) {
  const event = buildEventWidget(
    {
      slug: 'fed-december-2026',
      question: 'Will the Fed cut in December?',
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
    },
    SOON,
    'cents',
    CTX,
  );
  const metrics: MetricsData = {
    operators: [
      {
        operatorId: 'kalshi',
        volume24hUsd: 50_000_000,
        openInterestUsd: 100_000_000,
        liquidityUsd: 15_000_000,
        activeEvents: 40,
        volumeByCategoryUsd: { politics: 50_000_000 },
      },
      // No source reports its liquidity: the widget says so in its own words.
      {
        operatorId: 'polymarket',
        volume24hUsd: 70_000_000,
        openInterestUsd: null,
        liquidityUsd: null,
        activeEvents: 50,
        volumeByCategoryUsd: { crypto: 70_000_000 },
      },
    ],
  };
  const broad = buildBroadWidget(
    {
      metrics,
      changedAt: SOON,
      locale: lang,
      currency: 'USD',
      rate: 1,
      limit: 5,
      signals: new Map(),
      ctrPrior: { mean: 0, weight: 1000 },
      weights: { volume: 0.5, oiAccel: 0.2, ctr: 0.3 },
    },
    CTX,
  ).payload;
  // Football, so the W-D-L record and the draw column are there too.
  const epl: LeagueData = {
    league: 'EPL',
    teams: [
      { code: 'ARS', name: 'Arsenal', aliases: [] },
      { code: 'CHE', name: 'Chelsea', aliases: [] },
    ],
    finished: [
      {
        id: 'g1',
        scheduledTime: '2026-11-01T15:00:00.000Z',
        homeCode: 'ARS',
        awayCode: 'CHE',
        homeScore: 1,
        awayScore: 1,
        closingSpreadHome: -0.5,
        closingTotal: 2.5,
      },
    ],
    upcoming: [],
  };
  const line = (point: number) => ({ point, price: -110 });
  const sportsbook = buildSportsbookWidget(
    epl,
    {
      id: 'epl-2026-11-29-che-ars',
      scheduledTime: '2026-11-29T16:30:00.000Z',
      homeCode: 'ARS',
      awayCode: 'CHE',
      books: [
        {
          operatorId: 'draftkings',
          lastUpdate: SOON,
          homeSpread: line(-0.5),
          awaySpread: line(0.5),
          totalOver: line(2.5),
          totalUnder: line(2.5),
          homeMoneyline: 120,
          awayMoneyline: 240,
          drawMoneyline: 230,
        },
        {
          operatorId: 'fanduel',
          lastUpdate: SOON,
          homeSpread: line(-0.5),
          awaySpread: line(0.5),
          homeMoneyline: 115,
          awayMoneyline: 250,
          drawMoneyline: 225,
        },
      ],
    },
    CTX,
  );
  const venue = (operatorId: string, name: string, best: boolean) => ({
    operator_id: operatorId,
    operator_name: name,
    is_best_odds: best,
    updated_at: SOON,
    live_metrics: {
      spot_difference: '+$12.50',
      target_price: '$97,250.12',
      multipliers: { payout_up: 'x1.85', payout_down: 'x2.05' },
    },
    incentives: {
      coupon_value: '',
      cta_url: CTX.clickUrl({
        operatorId,
        widget: 'live-market',
        placement: 'BTC:15',
        impressionId: 'imp-1',
        expiresAt: CTX.linkExpiresAt,
      }),
    },
  });
  const live = LiveMarketPayload.parse({
    widget_class: 'live-market',
    resolved_geo: 'US',
    resolved_region: 'US-NJ',
    disclosures: null,
    refresh_interval_seconds: 1,
    underlying_asset: 'BTC',
    active_micro_question: 'Will BTC be at or above $97,250.12 at 14:15 UTC?',
    expiration_horizon: '15 minutes',
    providers_pool: [venue('kalshi', 'Kalshi', true), venue('polymarket', 'Polymarket', false)],
    unavailable_venues: [],
    unavailable_reason: null,
    market_status: 'open',
    window_start: '2026-11-22T14:00:00.000Z',
    expires_at: '2026-11-22T14:15:00.000Z',
    seconds_left: 245,
    spot_price: '$97,262.62',
    spot_path: [
      [0, 97_250.12],
      [30, 97_244.5],
      [120, 97_271.03],
      [240, 97_262.62],
    ],
    timestamp: SOON,
  });
  return { event, broad, sportsbook, 'live-market': live } satisfies Record<string, Payload>;
}

const view = (over: Partial<ViewState>): ViewState => ({
  kind: 'event',
  locale: undefined,
  payload: undefined,
  failed: false,
  retrying: false,
  ...over,
});

/** A label's own words: the string, or a function's text around its parameters. */
const words = (v: Labels[keyof Labels]): string[] =>
  (typeof v === 'function' ? (v as (...a: string[]) => string)('\u0000').split('\u0000') : [v])
    .map((w) => w.trim())
    .filter((w) => /\p{L}/u.test(w));

/** The labels proper (the language code is none). */
const KEYS = (Object.keys(EN) as Array<keyof Labels>).filter((k) => k !== 'lang');

/** `w` in `text` as whole words: "Best" is not in "Beste", nor "Trade" in "Trader". */
const hasWords = (text: string, w: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\p{L}\\p{N}])`, 'u').test(text);

/**
 * English labels left in `html` rendered with `L`: each English label's words, unless the same label
 * of `L` uses them too (Code, App:, ATS: see SAME_AS_ENGLISH) or the payload's own text has them
 * (its question says "at").
 */
function englishIn(html: string, L: Labels, payload: unknown): string[] {
  const data = JSON.stringify(payload ?? {});
  return KEYS.flatMap((k) =>
    words(EN[k]).filter((w) => !hasWords(words(L[k]).join('\n'), w) && !hasWords(data, w) && hasWords(html, esc(w))),
  );
}

/** Labels a language writes exactly as English does, on purpose; any other copy is an untranslated label. */
const SAME_AS_ENGLISH: Partial<Record<keyof Labels, readonly string[]>> = {
  code: ['de', 'fr'],
  app: ['es', 'de', 'pt'],
  total: ['es', 'fr', 'pt'],
  ats: ['es', 'de', 'fr', 'pt'],
  ou: ['es', 'de', 'fr', 'pt'],
};

/** Every state of every kind, in one language: data (stale, with a failing refresh), no data, loading. */
function renderAll(locale: string) {
  const L = labelsFor(locale);
  const all = payloads(L.lang);
  const pages = (Object.entries(all) as Array<[string, Payload]>).map(([kind, payload]) => ({
    kind,
    payload,
    html: renderView(view({ kind, locale, payload: { ...payload, stale: true }, failed: true, retrying: true }), L),
  }));
  const closed = (['awaiting_strike', 'no_strike', 'stale'] as const).map((market_status) => {
    const payload = { ...all['live-market'], market_status };
    return {
      kind: market_status,
      payload,
      html: renderView(view({ kind: 'live-market', locale, payload, failed: true, retrying: false }), L),
    };
  });
  const empty = [
    renderView(view({ kind: 'broad', locale, payload: { ...all.broad, operators: [] } }), L),
    renderView(view({ kind: 'sportsbook', locale, payload: { ...all.sportsbook, odds_matrix: { operators: [] } } }), L),
    renderView(view({ kind: 'live-market', locale, payload: { ...all['live-market'], providers_pool: [] } }), L),
    renderView(view({ kind: 'event', locale, payload: { ...all.event, outcomes: [] } }), L),
    renderView(
      view({
        kind: 'event',
        locale,
        payload: { ...all.event, outcomes: all.event.outcomes.map((o) => ({ ...o, comparison_pool: [] })) },
      }),
      L,
    ),
  ].map((html) => ({ kind: 'empty', payload: all, html }));
  const states = [
    renderView(view({ kind: 'sportsbook', locale, failed: true, retrying: true }), L),
    renderView(view({ kind: 'live-market', locale }), L),
    renderView(view({ kind: 'nonsense', locale }), L),
  ].map((html) => ({ kind: 'state', payload: {}, html }));
  return { L, all, pages: [...pages, ...closed, ...empty, ...states] };
}

describe("the widget's own text in the locale's language", () => {
  it('picks the table by the language subtag, any case; anything else is English', () => {
    for (const locale of ['de', 'de-DE', 'DE', 'de_AT', ' de-ch ']) expect(labelsFor(locale).lang, locale).toBe('de');
    expect(labelsFor('pt-BR').lang).toBe('pt');
    expect(labelsFor('fr-CA')).toBe(LABELS.fr);
    for (const locale of ['it', 'xx-YY', 'english', 'constructor', '__proto__', '', null, undefined])
      expect(labelsFor(locale), String(locale)).toBe(EN);
  });

  it('has every label in every language, none empty, functions taking the same parameters', () => {
    const keys = Object.keys(EN).sort();
    for (const lang of LANGS) {
      const L = LABELS[lang];
      expect(L.lang).toBe(lang);
      expect(Object.keys(L).sort(), lang).toEqual(keys);
      for (const key of keys as Array<keyof Labels>) {
        const [ours, en] = [L[key], EN[key]];
        expect(typeof ours, `${lang}.${key}`).toBe(typeof en);
        if (typeof ours === 'function' && typeof en === 'function') {
          expect(ours.length, `${lang}.${key}`).toBe(en.length);
          // A parameter the translation drops would hide the payload's value.
          expect((ours as (x: string) => string)('§1'), `${lang}.${key}`).toMatch(/\S.*§1|§1.*\S/);
        } else {
          expect(String(ours).trim(), `${lang}.${key}`).not.toBe('');
        }
      }
    }
  });

  it('translates every label: a copy of the English one only where the language writes it so', () => {
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const same = KEYS.filter((k) => {
        const [ours, en] = [LABELS[lang][k], EN[k]];
        return typeof ours === 'function'
          ? (ours as (x: string) => string)('§') === (en as (x: string) => string)('§')
          : ours === en;
      });
      expect(same, lang).toEqual(KEYS.filter((k) => SAME_AS_ENGLISH[k]?.includes(lang)));
    }
  });

  it("a locale that is no language tag (en_US, de_AT) still renders every kind, dates in the labels' language", () => {
    for (const locale of ['en_US', 'de_AT', 'not a tag!']) {
      const { L, pages } = renderAll(locale);
      expect(pages.length).toBeGreaterThan(0);
      const sportsbook = pages.find((p) => p.kind === 'sportsbook')!;
      const start = new Date(
        (sportsbook.payload as { match_meta: { scheduled_time: string } }).match_meta.scheduled_time,
      );
      expect(sportsbook.html, locale).toContain(
        esc(start.toLocaleString(L.lang, { dateStyle: 'medium', timeStyle: 'short' })),
      );
    }
  });

  it('an unknown or missing locale renders English, marked lang="en"', () => {
    for (const locale of ['xx', 'it-IT', undefined]) {
      const html = renderView(view({ kind: 'broad', locale }), labelsFor(locale));
      expect(html).toContain('lang="en"');
      expect(html).toContain('aria-label="Operator comparison"');
      expect(html).toContain('Loading…');
    }
    const { pages } = renderAll('xx-XX');
    for (const { html } of pages)
      expect(html).toMatch(/^<div class="w( sk)?" part="widget" role="group" aria-label="[^"]+" lang="en">/);
    expect(pages.map((p) => p.html).join('')).toContain('<h2>Top operators</h2>');
  });

  it('German: every kind and state in German, lang="de" also for de-DE, no English label left', () => {
    const { L, pages } = renderAll('de-DE');
    const html = Object.fromEntries(pages.map((p) => [p.kind, p.html]));
    for (const { html: h } of pages) expect(h).toContain(' lang="de">');
    // Event
    expect(html.event).toContain('aria-label="Quotenvergleich zum Ereignis"');
    expect(html.event).toContain(
      '<th scope="col">Anbieter</th><th scope="col">Ja-Preis</th><th scope="col">24h-Volumen</th>',
    );
    expect(html.event).toContain('<caption class="sr">Preise für Cut &#34;25bp&#34;</caption>');
    expect(html.event).toContain('<span class="badge">Beste Quote</span>');
    expect(html.event).toContain('Handeln<span class="sr"> bei Kalshi (gesponsert, öffnet in neuem Tab)</span>');
    expect(html.event).toContain('Letzte empfangene Daten; neuer Versuch läuft.');
    expect(html.event).toContain('Angebote für Ihre Region: <b>US-NJ</b>');
    // Broad
    expect(html.broad).toContain('<h2>Top-Anbieter</h2>');
    expect(html.broad).toContain('<dt>Aktivste Kategorie</dt>');
    expect(html.broad).toContain('<span class="sr">Rang </span>1');
    expect(html.broad).toContain('<dt>Liquidität</dt><dd>keine Angabe</dd>');
    expect(html.broad).toContain('Aktualisiert um <time');
    // Sportsbook
    expect(html.sportsbook).toContain('<th scope="col">Handicap <span class="small">auswärts / heim</span></th>');
    expect(html.sportsbook).toContain('<th scope="col">Sieger <span class="small">auswärts / heim / remis</span></th>');
    expect(html.sportsbook).toContain('<caption class="sr">Quoten für Arsenal vs Chelsea</caption>');
    expect(html.sportsbook).toMatch(/ · Bevorstehend<\/p>/);
    expect(html.sportsbook).toContain('Bilanz 0-0');
    expect(html.sportsbook).toContain('S-U-N 0-1-0');
    expect(html.sportsbook).toContain('ATS ');
    expect(html.sportsbook).toContain('Beste<span class="sr"> Quote</span>');
    // Live market
    expect(html['live-market']).toContain('Schließt in <b class="countdown">4:05</b>');
    expect(html['live-market']).toContain('15-Minuten-Fenster');
    expect(html['live-market']).toContain(
      '<th scope="col">Anbieter</th><th scope="col">Referenzkurs</th><th scope="col">Steigt</th><th scope="col">Fällt</th>',
    );
    expect(html.awaiting_strike).toContain(
      '<p class="note">Das Zeitfenster hat gerade begonnen: Der Referenzkurs steht noch aus.</p>',
    );
    expect(html.no_strike).toContain('Letzte empfangene Daten; keine Aktualisierung.');
    const all = pages.map((p) => p.html).join('\n');
    expect(all).toContain(L.statusStale);
    expect(all).toContain('<strong>Dieses Widget ist gerade nicht verfügbar.</strong> Neuer Versuch…');
    expect(all).toContain('Wird geladen…');
    expect(all).toContain('aria-label="predictwire-Widget"');
    for (const { html: h, payload } of pages) expect(englishIn(h, L, payload)).toEqual([]);
  });

  it('Portuguese: every kind and state in Portuguese (pt-BR), no English label left', () => {
    const { L, pages } = renderAll('pt-BR');
    const html = Object.fromEntries(pages.map((p) => [p.kind, p.html]));
    for (const { html: h } of pages) expect(h).toContain(' lang="pt">');
    expect(html.event).toContain('<th scope="col">Operador</th><th scope="col">Preço do Sim</th>');
    expect(html.event).toContain('<span class="code">Código <code>PWKALSHI</code></span>');
    expect(html.event).toContain('Negociar<span class="sr"> em Kalshi (patrocinado, abre em nova aba)</span>');
    expect(html.broad).toContain('<h2>Melhores operadores</h2>');
    expect(html.broad).toContain('<dt>Liquidez</dt><dd>sem dados</dd>');
    expect(html.broad).toContain('<span class="muted">App: iOS, Google Play</span>');
    expect(html.sportsbook).toContain('<th scope="col">Vencedor <span class="small">fora / casa / empate</span></th>');
    expect(html.sportsbook).toContain('V-E-D 0-1-0');
    expect(html['live-market']).toContain('Fecha em <b class="countdown">4:05</b>');
    expect(html['live-market']).toContain('janela de 15 min');
    expect(html['live-market']).toContain('Estes preços podem estar atrasados');
    expect(html.stale).toContain('O feed de preços está atrasado');
    const all = pages.map((p) => p.html).join('\n');
    expect(all).toContain('Nenhuma casa de apostas pode ser exibida na sua região.');
    expect(all).toContain('Carregando…');
    for (const { html: h, payload } of pages) expect(englishIn(h, L, payload)).toEqual([]);
  });

  it('Spanish and French render with their own labels too, English nowhere', () => {
    for (const locale of ['es-MX', 'fr']) {
      const { L, pages } = renderAll(locale);
      for (const { html, payload } of pages) {
        expect(html).toContain(` lang="${L.lang}">`);
        expect(englishIn(html, L, payload)).toEqual([]);
      }
    }
  });

  it('escapes payload strings once inside a translated label', () => {
    const { pages } = renderAll('fr');
    const event = pages.find((p) => p.kind === 'event')!.html;
    expect(event).toContain('<caption class="sr">Prix pour Cut &#34;25bp&#34;</caption>');
    expect(event).not.toContain('&#38;#34;');
  });

  it('the English check itself finds an English label, as whole words', () => {
    expect(englishIn('<p>Top operators</p><th>Best</th>', LABELS.de, {})).toEqual(['Top operators', 'Best']);
    expect(englishIn('<p>Beste Quote</p>', LABELS.de, {})).toEqual([]);
    expect(englishIn('<b>Trade</b>', LABELS.fr, {})).toEqual(['Trade']);
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
    const widgets = demoWidgets(new Date('2026-12-02T12:00:00Z'));
    expect(widgets.map((w) => w.attributes.kind)).toEqual(['event', 'broad', 'sportsbook', 'live-market']);
    expect(snippet('https://api.example', widgets[3]!, 'dark')).toBe(
      '<script src="https://api.example/v1/embed.js"></script>\n<predictwire-widget kind="live-market" asset="BTC" horizon="15" theme="dark"></predictwire-widget>',
    );
  });

  // The Fed meeting of December 2026 is decided on the 9th: the day after, the simulator lists
  // January's, and a page with the old slug would show an unknown event.
  it.each(['2026-12-02T12:00:00Z', '2026-12-10T12:00:00Z', '2027-03-01T00:00:00Z'])(
    'name only events the simulator lists at the time (%s)',
    (at) => {
      const now = new Date(at);
      const listed = buildEvents(1, now).events.map((e) => e.slug);
      const named = [...demoWidgets(now), ...demoVariants(now)].flatMap((w) => w.attributes.slug ?? []);
      expect(named.length).toBe(2);
      for (const slug of named) expect(listed).toContain(slug);
      // The configurator's slug field starts on the same event as the page's event widget.
      expect(demoPage('https://api.example', now)).toContain(`name="slug" value="${named[0]}"`);
    },
  );
});

describe('what issue "Lawful where shown" adds, rendered when present', () => {
  const all = payloads('en');
  const disclosures = {
    min_age: 21,
    ad_label: 'Advertisement',
    responsible_gambling: {
      text: 'Gambling problem? Help is available.',
      url: 'https://www.ncpgambling.org/help',
      phone: '1-800-522-4700',
    },
  };

  it('every kind: the ad label and minimum age above, the help line with its link and phone below, the region in the footer', () => {
    for (const [kind, payload] of Object.entries(all) as Array<[string, Payload]>) {
      const html = renderView(view({ kind, payload: { ...payload, disclosures, resolved_region: 'US-NJ' } }), EN);
      expect(html, kind).toContain('<p class="ad"><span>Advertisement</span> <b class="age">21+</b></p>');
      expect(html, kind).toContain(
        'Gambling problem? Help is available. <a href="https://www.ncpgambling.org/help" target="_blank" rel="noopener">www.ncpgambling.org</a>',
      );
      expect(html, kind).toContain('<a href="tel:18005224700">1-800-522-4700</a>');
      expect(html, kind).toContain('<b>US-NJ</b>');
      expect(html.indexOf('class="ad"'), kind).toBeLessThan(html.indexOf('class="rg"'));
    }
  });

  it('tolerates their absence (null or missing) and a help line without a phone', () => {
    for (const built of Object.values(all) as Payload[]) {
      // the builders fill both fields: take them out to see an older payload
      const {
        disclosures: _d,
        resolved_region: _r,
        ...payload
      } = built as Payload & { disclosures?: unknown; resolved_region?: unknown };
      for (const extra of [{}, { disclosures: null, resolved_region: null }]) {
        const html = renderView(view({ kind: 'x', payload: { ...payload, ...extra } as Payload }), EN);
        expect(html).not.toContain('class="ad"');
        expect(html).not.toContain('class="rg"');
        expect(html).toContain(`<b>${payload.resolved_geo}</b>`);
      }
    }
    const noPhone = { ...disclosures, responsible_gambling: { ...disclosures.responsible_gambling, phone: null } };
    expect(renderView(view({ kind: 'broad', payload: { ...all.broad, disclosures: noPhone } }), EN)).not.toContain(
      'tel:',
    );
  });

  it('dials a helpline with vanity letters as on a phone keypad', () => {
    expect(telUri('1-800-GAMBLER')).toBe('tel:18004262537');
    expect(telUri('877-8-HOPENY')).toBe('tel:8778467369');
    expect(telUri('0808 8020 133')).toBe('tel:08088020133');
    expect(telUri('+44 808 8020 133')).toBe('tel:+448088020133');
  });

  it("broad: the promotion's significant terms under it, with a T&Cs link", () => {
    const op = all.broad.operators[0]!;
    const terms = { promo_terms: 'New customers, 21+. Min deposit $10.', promo_terms_url: 'https://example.com/terms' };
    const other = all.broad.operators[1]!;
    const broad = {
      ...all.broad,
      operators: [
        { ...op, incentives: { ...op.incentives, ...terms } },
        { ...other, incentives: { ...other.incentives, promo_terms: '', promo_terms_url: '' } },
      ],
    };
    const html = renderView(view({ kind: 'broad', payload: broad }), EN);
    expect(html).toContain(
      `<p class="terms small">New customers, 21+. Min deposit $10. <a href="https://example.com/terms" target="_blank" rel="sponsored noopener" data-op="${op.operator_name}">T&amp;Cs</a></p>`.replace(
        '&amp;',
        '&#38;',
      ),
    );
    expect(html.match(/class="terms/g)).toHaveLength(1);
    // '' for no promo: no empty line.
    const none = {
      ...all.broad,
      operators: [{ ...op, incentives: { ...op.incentives, promo_terms: '', promo_terms_url: '' } }],
    };
    expect(renderView(view({ kind: 'broad', payload: none }), EN)).not.toContain('class="terms');
  });

  it("sportsbook: the operator's name is its sponsored link when the payload gives one", () => {
    const ops = all.sportsbook.odds_matrix.operators.map((op, i) => ({
      ...op,
      routing: { web_url: `https://api.example/v1/click?t=${i}` },
    }));
    const html = renderView(
      view({ kind: 'sportsbook', payload: { ...all.sportsbook, odds_matrix: { operators: ops } } }),
      EN,
    );
    for (const [i, op] of ops.entries()) {
      expect(html).toContain(
        `<th scope="row"><a class="op" href="https://api.example/v1/click?t=${i}" target="_blank" rel="sponsored noopener" data-k="s:${i}" data-op="${op.name}">${op.name}<span class="sr">`,
      );
    }
    const unlinked = all.sportsbook.odds_matrix.operators.map(({ routing: _r, ...op }) => op);
    expect(
      renderView(
        view({ kind: 'sportsbook', payload: { ...all.sportsbook, odds_matrix: { operators: unlinked } } as Payload }),
        EN,
      ),
    ).not.toContain('class="op"');
  });
});

describe('quiet best odds, collapsed event, empty payloads', () => {
  const all = payloads('en');

  it('no badge where only one operator quotes', () => {
    const outcome = all.event.outcomes[0]!;
    const single = {
      ...all.event,
      outcomes: [{ ...outcome, comparison_pool: [{ ...outcome.comparison_pool[0]!, is_best_odds: true }] }],
    };
    expect(renderEvent(single, EN, undefined)).not.toContain('class="badge"');
    const live = all['live-market'];
    const one = { ...live, providers_pool: [{ ...live.providers_pool[0]!, is_best_odds: true }] };
    expect(renderView(view({ kind: 'live-market', payload: one }), EN)).not.toContain('class="badge"');
    expect(renderView(view({ kind: 'live-market', payload: live }), EN)).toContain('class="badge"');
    // Sportsbook: only draftkings quotes totals in the fixture, so its total leads carry no badge.
    const html = renderView(view({ kind: 'sportsbook', payload: all.sportsbook }), EN);
    const quoted = (key: string) => all.sportsbook.odds_matrix.operators.filter((op) => key in op.lines).length;
    const expected = all.sportsbook.odds_matrix.operators.flatMap((op) =>
      op.best_odds.filter((k) => quoted(k) > 1),
    ).length;
    expect(all.sportsbook.odds_matrix.operators.some((op) => op.best_odds.some((k) => quoted(k) === 1))).toBe(true);
    expect(html.match(/class="badge"/g)?.length ?? 0).toBe(expected);
  });

  it('the event shows the first operators of each outcome and an expander for the rest', () => {
    const outcome = all.event.outcomes[0]!;
    const pool = [0, 1, 2, 3].map((i) => ({
      ...outcome.comparison_pool[i % 2]!,
      operator_id: `op${i}`,
      operator_name: `Op ${i}`,
    }));
    const p = { ...all.event, outcomes: [{ ...outcome, comparison_pool: pool }] };
    const closed = renderEvent(p, EN, undefined);
    expect(closed.match(/<tr data-operator="[^"]+" class="[^"]*more/g)).toHaveLength(pool.length - TOP);
    expect(closed).toContain(`aria-expanded="false">Show ${pool.length - TOP} more</button>`);
    const opened = renderEvent(p, EN, undefined, new Set([0]));
    expect(opened).toContain('<table id="o0" class="open">');
    expect(opened).toContain('aria-expanded="true">Show fewer</button>');
    expect(renderEvent(all.event, EN, undefined)).not.toContain('<button');
    // The best price is among the ones shown, wherever the payload lists it.
    const lastBest = {
      ...p,
      outcomes: [{ ...outcome, comparison_pool: pool.map((c, i) => ({ ...c, is_best_odds: i === 3 })) }],
    };
    expect([...renderEvent(lastBest, EN, undefined).matchAll(/<tr data-operator="([^"]+)"/g)].map((m) => m[1])).toEqual(
      ['op3', 'op0', 'op1', 'op2'],
    );
  });

  it('a payload with nothing lawful to show says so in one line', () => {
    const empty: Payload[] = [
      { ...all.broad, operators: [] },
      { ...all.event, outcomes: all.event.outcomes.map((o) => ({ ...o, comparison_pool: [] })) },
      { ...all.event, outcomes: [] },
      { ...all.sportsbook, odds_matrix: { operators: [] } },
      { ...all['live-market'], providers_pool: [], unavailable_reason: 'not_lawful_here' },
      // Whatever the window's state: a horizon nothing lawful lists stays empty between windows too.
      {
        ...all['live-market'],
        providers_pool: [],
        unavailable_reason: 'not_lawful_here',
        market_status: 'awaiting_strike',
      },
      {
        ...all['live-market'],
        providers_pool: [],
        unavailable_reason: 'no_venue_for_horizon',
        market_status: 'stale',
        stale: true,
      },
    ];
    for (const p of empty) {
      expect(isEmpty(p), p.widget_class).toBe(true);
      const html = renderView(view({ kind: 'x', payload: p }), EN);
      expect(html.match(/<p class="note">/g), p.widget_class).toHaveLength(1);
      expect(html).not.toMatch(/<h2|<table|<ol/);
    }
    expect(renderView(view({ kind: 'x', payload: empty[6]! }), EN)).toContain(EN.noVenueForHorizon);
    expect(renderView(view({ kind: 'x', payload: empty[4]! }), EN)).toContain(EN.noVenue);
    for (const p of Object.values(all) as Payload[]) expect(isEmpty(p)).toBe(false);
    // Venues that may be shown but quote nothing now, or a late feed, are not empty: the widget says why itself.
    expect(isEmpty({ ...all['live-market'], providers_pool: [], unavailable_reason: 'no_quote' })).toBe(false);
    expect(
      isEmpty({ ...all['live-market'], providers_pool: [], market_status: 'stale', unavailable_reason: 'stale' }),
    ).toBe(false);
  });
});

describe("numbers in the widget's locale", () => {
  it('money, percentages, odds and multipliers as Intl writes them', () => {
    const de = (s: string) => localNumber(s, 'de-DE');
    const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(nbsp(de('€579.0M'))).toBe('579 Mio. €');
    expect(nbsp(de('$1.2B'))).toBe('1,2 Mrd. $');
    expect(nbsp(de('$97,262.62'))).toBe('97.262,62 $');
    expect(nbsp(de('+$12.50'))).toBe('+12,50 $');
    expect(nbsp(de('62.0%'))).toBe('62,0 %');
    expect(de('x1.85')).toBe('x1,85');
    expect(de('+3.5 (-110)')).toBe('+3,5 (-110)');
    expect(de('+1200')).toBe('+1200');
    expect(de('9/4')).toBe('9/4');
    expect(de('4.5/5')).toBe('4,5/5');
    expect(nbsp(localNumber('¥1,234', 'ja-JP'))).toBe('￥1,234');
    // en-US reads what the API wrote.
    for (const s of ['$579M', '$97,262.62', '62.0%', 'x1.85', '+3.5 (-110)', '62¢'])
      expect(localNumber(s, 'en-US')).toBe(s);
  });

  it('a German widget shows German numbers throughout', () => {
    const { pages } = renderAll('de');
    const broad = pages.find((p) => p.kind === 'broad')!;
    const volume = (broad.payload as { trending_summary: { global_24h_volume: string } }).trending_summary
      .global_24h_volume;
    expect(broad.html).toContain(esc(localNumber(volume, 'de')));
    expect(localNumber(volume, 'de')).toMatch(/Mio\.|Mrd\./);
  });
});

describe('live-market embed', () => {
  it('names the venues that list the window but have no usable quote now, in the widget language, without a price', () => {
    const live = payloads('en')['live-market'];
    const away = [
      { operator_id: 'polymarket', operator_name: 'Polymarket' },
      { operator_id: 'limitless', operator_name: 'Limitless' },
    ];
    const html = renderLive({ ...live, unavailable_venues: away }, EN, undefined);
    expect(html).toContain('<p class="muted small">Unavailable now: Polymarket, Limitless</p>');
    const none = renderLive({ ...live, providers_pool: [], unavailable_venues: away }, labelsFor('de'), 'de');
    expect(none).toContain('Derzeit nicht verfügbar: Polymarket, Limitless');
    expect(none).not.toContain('<table');
    expect(renderLive({ ...live, unavailable_venues: [] }, EN, undefined)).not.toContain('Unavailable now');
  });

  it('shows a venue without a strike of its own with a dash, never another strike under its name', () => {
    const live = payloads('en')['live-market'];
    const [kalshi, poly] = live.providers_pool;
    const html = renderLive(
      {
        ...live,
        providers_pool: [
          kalshi!,
          { ...poly!, live_metrics: { ...poly!.live_metrics, target_price: null, spot_difference: null } },
        ],
      },
      EN,
      undefined,
    );
    const row = (id: string) => html.slice(html.indexOf(`data-operator="${id}"`)).split('</tr>')[0]!;
    expect(row('kalshi')).toContain(esc(kalshi!.live_metrics.target_price!));
    expect(row('polymarket')).toContain('<td class="num">—</td>');
    expect(row('polymarket')).not.toContain('$');
  });
});

describe('sparklines', () => {
  const event: MarketEvent = {
    slug: 'fed-december-2026',
    question: 'Will the Fed cut?',
    category: 'economics',
    closesAt: '2026-12-16T19:00:00.000Z',
    outcomes: [
      {
        name: 'Cut',
        quotes: [{ operatorId: 'kalshi', yesPrice: 0.6, volume24hUsd: 300, marketUrl: 'https://kalshi.com/markets/a' }],
      },
      {
        name: 'Hold',
        quotes: [{ operatorId: 'kalshi', yesPrice: 0.4, volume24hUsd: 300, marketUrl: 'https://kalshi.com/markets/a' }],
      },
    ],
  };
  const payload = buildEventWidget(event, '2026-11-22T14:00:00.000Z', 'cents', makeContext());
  /** Points from the event at three refreshes, the Cut price moving; Hold unquoted in the middle one. */
  const points = [0.5, 0.55, 0.6].map((price, i) => {
    const at = {
      ...event,
      outcomes: event.outcomes
        .map((o, k) => (k === 0 ? { ...o, quotes: [{ ...o.quotes[0]!, yesPrice: price }] } : o))
        .filter((_, k) => k === 0 || i !== 1),
    };
    return pointOf(at, 1_763_820_000 + i * 300);
  });
  const history = buildEventHistory(points, {
    slug: event.slug,
    range: '1d',
    category: 'economics',
    jurisdiction: 'US-NJ',
    isShown: () => true,
  });
  const polylines = (html: string) => [...html.matchAll(/<polyline points="([^"]*)"\/>/g)].map((m) => m[1]!.split(' '));

  it("draws each outcome's day of probability from the history, skipping the points it had none", () => {
    const html = renderEvent(payload, EN, undefined, new Set(), history);
    const lines = polylines(html);
    expect(lines.map((l) => l.length)).toEqual(
      history.outcomes.map((o) => o.probability_pct.filter((v) => v !== null).length),
    );
    // x runs over the day's points, the highest probability on top (smallest y).
    expect(lines[0]!.map((p) => p.split(',')[0])).toEqual(['0.0', '50.0', '100.0']);
    expect(Number(lines[0]![2]!.split(',')[1])).toBeLessThan(Number(lines[0]![0]!.split(',')[1]));
    // No style attribute anywhere (strict CSP); before the history loads, empty boxes hold the place.
    expect(html).not.toMatch(/style=/);
    const before = renderEvent(payload, EN, undefined);
    expect(before.match(/<svg class="spark/g)).toHaveLength(payload.outcomes.length);
    expect(polylines(before)).toEqual([]);
  });

  it("draws the live window's spot path across the window, with the strike as a dashed line", () => {
    const live = payloads('en')['live-market'];
    const html = renderLive(live, EN, undefined);
    const [line] = polylines(html);
    expect(line).toHaveLength(live.spot_path.length);
    // x: seconds over the 15-minute window.
    expect(line!.map((p) => p.split(',')[0])).toEqual(live.spot_path.map(([s]) => ((s / 900) * 100).toFixed(1)));
    expect(html).toMatch(
      /<svg class="spark up"[^>]*><polyline[^>]*\/><line x1="0" x2="100" y1="([\d.]+)" y2="\1"\/><\/svg>/,
    );
    expect(renderLive({ ...live, spot_path: [] }, EN, undefined)).toContain(
      '<svg class="spark up" viewBox="0 0 100 24" preserveAspectRatio="none" aria-hidden="true"></svg>',
    );
  });

  it("asks for the event's history beside its payload", () => {
    expect(request({ kind: 'event', slug: 'a-b', 'fallback-geo': 'GB' }).history).toBe(
      'https://api.example/v1/widgets/event/history?slug=a-b&fallback_geo=GB',
    );
    expect(request({ kind: 'broad' }).history).toBeUndefined();
  });
});
