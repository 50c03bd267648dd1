/** The benchmark's pure helpers (bench/lib): what its table says depends on them being right. */
import { describe, expect, it } from 'vitest';
import { parseHttpResponse, replayHeaders, wrkRequest } from '../../bench/lib/http-capture.js';
import { DEFAULTS, parseOptions } from '../../bench/lib/options.js';
import { replayKey } from '../../bench/lib/replay.js';
import { isNoisy, matchByPrice, median, NOISE, percentile, roundSpread } from '../../bench/lib/stats.js';
import { renderMarkdown } from '../../bench/lib/table.js';
import { parseWrk, wrkDurationMs } from '../../bench/lib/wrk.js';

const WRK_OUTPUT = `Running 2s test @ http://127.0.0.1:41234/v1/widgets/broad?fallback_geo=US
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.21ms  450.00us   9.87ms   80.00%
    Req/Sec    52.10k     3.00k   55.00k    90.00%
  Latency Distribution
     50%  850.00us
     75%    1.40ms
     90%    1.80ms
     99%    2.45ms
  104200 requests in 2.00s, 120.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 1
  Non-2xx or 3xx responses: 7
Requests/sec:  52098.12
Transfer/sec:     60.00MB
`;

describe('wrk output', () => {
  it('reads req/s, request count, latency percentiles and failures', () => {
    expect(parseWrk(WRK_OUTPUT)).toEqual({
      rps: 52098.12,
      requests: 104200,
      p50Ms: 0.85,
      p99Ms: 2.45,
      non2xx: 7,
      socketErrors: 3,
    });
  });

  it('counts no failures when wrk reports none, and converts every duration unit', () => {
    const clean = WRK_OUTPUT.replace(/ {2}Socket errors.*\n {2}Non-2xx.*\n/, '');
    expect(parseWrk(clean)).toMatchObject({ non2xx: 0, socketErrors: 0 });
    expect([wrkDurationMs('500.00us'), wrkDurationMs('2.5s'), wrkDurationMs('1.00m'), wrkDurationMs('fast')]).toEqual([
      0.5,
      2500,
      60_000,
      Number.NaN,
    ]);
  });
});

describe('percentile', () => {
  it('is the nearest rank of the sorted values', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(xs, 50), percentile(xs, 99), percentile(xs, 100), percentile([7], 99)]).toEqual([
      50, 99, 100, 7,
    ]);
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('median', () => {
  it('is the middle run, so one disturbed run does not move a row', () => {
    expect(median([50_000, 12_000, 48_000])).toBe(48_000);
    expect(median([1, 4, 2, 3])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('matchByPrice', () => {
  it('measures each frame from the latest change to the price it shows', () => {
    const ticks = [
      { price: '$1.00', atUs: 1_000 },
      { price: '$1.00', atUs: 2_000 }, // same shown price: the change was at 1,000
      { price: '$2.00', atUs: 3_000 },
      { price: '$1.00', atUs: 5_000 },
    ];
    const arrivals = new Map([
      ['$1.00', [2_500, 6_000]],
      ['$2.00', [3_400]],
      ['$9.99', [4_000]],
    ]);
    expect(matchByPrice(ticks, arrivals)).toEqual({ latenciesMs: [0.4, 1, 1.5], unmatched: 1 });
  });

  it('does not match a frame to a tick that came after it', () => {
    expect(matchByPrice([{ price: '$1.00', atUs: 5_000 }], new Map([['$1.00', [4_000]]]))).toEqual({
      latenciesMs: [],
      unmatched: 1,
    });
  });

  it('with slack, gives a frame that beat the stamp of its tick latency 0, not an older change of its price', () => {
    const ticks = [
      { price: '$1.00', atUs: 1_000_000 },
      { price: '$2.00', atUs: 2_000_000 },
      { price: '$1.00', atUs: 9_000_000 }, // stamped 2 ms after a client already had its frame
    ];
    const arrivals = new Map([['$1.00', [8_998_000]]]);
    expect(matchByPrice(ticks, arrivals)).toEqual({ latenciesMs: [7_998], unmatched: 0 });
    expect(matchByPrice(ticks, arrivals, 20_000)).toEqual({ latenciesMs: [0], unmatched: 0 });
    // A change further ahead than the slack is not this frame's.
    expect(matchByPrice(ticks, new Map([['$1.00', [8_900_000]]]), 20_000)).toEqual({
      latenciesMs: [7_900],
      unmatched: 0,
    });
  });
});

describe('HTTP capture', () => {
  it('writes the request wrk sends: request line, Host, the given headers', () => {
    expect(wrkRequest('127.0.0.1', 8080, '/a?b=1', { 'Accept-Encoding': 'gzip, deflate, br' })).toBe(
      'GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n',
    );
  });

  it('parses a response only once it is complete, keeping header order and spelling', () => {
    const raw = Buffer.from(
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: "x"\r\nDate: now\r\nuWebSockets: 20\r\nContent-Length: 4\r\n\r\n{"a"',
    );
    expect(parseHttpResponse(raw.subarray(0, raw.length - 1))).toBeUndefined();
    const res = parseHttpResponse(raw)!;
    expect(res.status).toBe('200 OK');
    expect(res.statusCode).toBe(200);
    expect(res.body.toString()).toBe('{"a"');
    // What the replaying uWS app writes itself: everything but Date, its mark and Content-Length.
    expect(replayHeaders(res)).toEqual([
      ['Content-Type', 'application/json'],
      ['ETag', '"x"'],
    ]);
  });

  it('refuses what it cannot replay', () => {
    expect(() => parseHttpResponse(Buffer.from('SPDY 200\r\n\r\n'))).toThrow(/status line/);
    expect(() => parseHttpResponse(Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'))).toThrow(
      /chunked/,
    );
  });

  it('keys a replayed answer by path, query and Accept-Encoding', () => {
    expect(replayKey('/v1/x', 'a=1', '')).not.toBe(replayKey('/v1/x', 'a=1', 'gzip, deflate, br'));
    expect(replayKey('/v1/x', 'a=1', '')).not.toBe(replayKey('/v1/x', 'a=2', ''));
  });
});

describe('bench options', () => {
  it('defaults to every part', () => {
    expect(parseOptions([], {})).toEqual(DEFAULTS);
  });

  it('takes flags over BENCH_* variables, and "live" for both fan-out parts', () => {
    const o = parseOptions(['--only', 'live,rest', '--seconds', '3'], {
      BENCH_SECONDS: '9',
      BENCH_SUBSCRIBERS: '500,2000',
      BENCH_ROUNDS: '4',
    });
    expect(o).toMatchObject({ parts: ['rest', 'fanout', 'feed'], seconds: 3, rounds: 4, subscribers: [500, 2000] });
  });

  it('refuses unknown parts and non-positive numbers', () => {
    expect(() => parseOptions(['--only', 'rst'])).toThrow(/unknown part "rst"/);
    expect(() => parseOptions(['--seconds', '0'])).toThrow(/--seconds must be a positive integer/);
    expect(() => parseOptions(['--subscribers', '1000,x'])).toThrow(/--subscribers/);
    expect(() => parseOptions(['--bogus'])).toThrow();
  });
});

describe('table', () => {
  it('renders rows and bytes on the wire as markdown, escaping pipes', () => {
    const md = renderMarkdown(
      [
        {
          area: 'REST',
          case: 'a|b',
          baseline: '10 req/s',
          predictwire: '9 req/s',
          ratio: '0.90',
          target: '≥ 0.85',
          result: 'pass',
        },
      ],
      [{ endpoint: 'broad US', identity: 4057, gzip: 1200, br: 1000, browserGets: 'br' }],
    );
    expect(md.split('\n')).toEqual([
      '| area | case | baseline | predictwire | ratio | target | result |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      '| REST | a\\|b | 10 req/s | 9 req/s | 0.90 | ≥ 0.85 | pass |',
      '',
      '| bytes on the wire (body) | identity | gzip | br | browser gets |',
      '| --- | ---: | ---: | ---: | --- |',
      '| broad US | 4,057 | 1,200 | 1,000 | br |',
    ]);
  });
});

describe('noise in REST rows', () => {
  it('spreads the per-round ratios of runs taken back to back', () => {
    expect(roundSpread([100, 200, 50], [90, 220, 50])).toEqual([0.9, 1.1]);
    expect(roundSpread([], [])).toEqual([Number.NaN, Number.NaN]);
  });

  it('takes a row again when its rounds disagree or it cost far more CPU than the run median', () => {
    expect(isNoisy([0.95, 1.0], 1, 0.97, 0.9)).toBe(false);
    expect(isNoisy([0.8, 1.0], 1, 0.9, 0.9)).toBe(true);
    expect(isNoisy([0.95, 1.0], NOISE.cpuOverMedian + 0.1, 0.97, 0.9)).toBe(true);
    expect(isNoisy([0.95, 1.0], Number.NaN, 0.97, 0.9)).toBe(false);
    // A wide spread far above the target cannot change the verdict: not taken again for it alone.
    expect(isNoisy([0.8, 1.2], 1, 1.1, 0.9)).toBe(false);
    expect(isNoisy([0.8, 1.2], NOISE.cpuOverMedian + 0.1, 1.1, 0.9)).toBe(true);
  });
});
