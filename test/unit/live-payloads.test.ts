import { describe, expect, it, vi } from 'vitest';
import type { ChangeKind, LiveEngine, LiveListener } from '../../src/live/engine.js';
import { LivePayloads } from '../../src/serve/live-payloads.js';

/** Just the change notifications LivePayloads listens to, fired by hand. */
function engineStub(): { engine: LiveEngine; fire(kind: ChangeKind): void } {
  let listener: LiveListener = () => {};
  const engine = { onChange: (l: LiveListener) => void (listener = l) } as unknown as LiveEngine;
  return { engine, fire: (kind) => listener('BTC', 5, kind) };
}

describe('LivePayloads per visitor country', () => {
  it('builds a body per country, pushes only the variants someone subscribes to, and rebuilds the rest on a read a second later', () => {
    let now = 1_000_000;
    const builds: string[] = [];
    const { engine, fire } = engineStub();
    const live = new LivePayloads(
      engine,
      (asset, horizon, nowMs, country) => {
        builds.push(country);
        return { asset, horizon, nowMs, resolved_geo: country };
      },
      250,
      () => now,
    );
    const pushed: Array<[string, string, unknown]> = [];
    live.onPush(
      (topic, country, body) => pushed.push([topic, country, JSON.parse(body.toString())]),
      (topic, country) => topic === 'live-market:BTC:5' && country === 'US',
    );

    const us = JSON.parse(live.latest('BTC', 5, 'US').body.toString()) as { resolved_geo: string };
    const jp = JSON.parse(live.latest('BTC', 5, 'JP').body.toString()) as { resolved_geo: string };
    expect([us.resolved_geo, jp.resolved_geo]).toEqual(['US', 'JP']);
    // a second read within the second is served from memory
    live.latest('BTC', 5, 'US');
    expect(builds).toEqual(['US', 'JP']);

    now += 300;
    fire('tick');
    // US has a subscriber: rebuilt and pushed under its public topic; JP has none: not built
    expect(pushed.map(([t, c]) => [t, c])).toEqual([['live-market:BTC:5', 'US']]);
    expect(builds).toEqual(['US', 'JP', 'US']);
    // ...and a read of JP within the second gets its body as built (the age its Cache-Control allows)
    const built = now - 300;
    expect(JSON.parse(live.latest('BTC', 5, 'JP').body.toString())).toMatchObject({ resolved_geo: 'JP', nowMs: built });
    now = built + 999;
    live.latest('BTC', 5, 'JP');
    expect(builds).toEqual(['US', 'JP', 'US']);
    // a second after it was built, the next read rebuilds it and sees the change
    now = built + 1000;
    const jpAgain = live.latest('BTC', 5, 'JP');
    expect(builds).toEqual(['US', 'JP', 'US', 'JP']);
    expect(JSON.parse(jpAgain.body.toString())).toMatchObject({ resolved_geo: 'JP', nowMs: now });
    live.stop();
  });
});

describe('LivePayloads push coalescing', () => {
  it('pushes the first change after a quiet spell at once, and merges later ones into one push at the interval end, built once', () => {
    vi.useFakeTimers();
    try {
      const { engine, fire } = engineStub();
      let builds = 0;
      const live = new LivePayloads(
        engine,
        (asset, horizon, nowMs) => {
          builds++;
          return { asset, horizon, nowMs };
        },
        100,
        () => Date.now(),
      );
      const pushes: number[] = [];
      live.onPush(
        () => pushes.push(Date.now()),
        () => true,
      );
      live.latest('BTC', 5, 'US'); // a subscriber's first read made the variant
      const start = Date.now();
      builds = 0;
      fire('tick'); // leading edge: at once
      expect(pushes).toEqual([start]);
      vi.advanceTimersByTime(30);
      fire('tick');
      vi.advanceTimersByTime(30);
      fire('tick');
      expect(pushes).toHaveLength(1); // both wait for the interval's end
      vi.advanceTimersByTime(40);
      expect(pushes).toEqual([start, start + 100]);
      // one build per push, whatever the number of subscribers or changes merged
      expect(builds).toBe(2);
      vi.advanceTimersByTime(500);
      fire('tick'); // quiet for longer than the interval: at once again
      expect(pushes.at(-1)).toBe(start + 600);
      live.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('LivePayloads for an advertiser', () => {
  it("keeps each advertiser's body apart from the public one and the others', reuses it within the second, and never pushes it", () => {
    let now = 2_000_000;
    const builds: Array<string | undefined> = [];
    const { engine, fire } = engineStub();
    const live = new LivePayloads(
      engine,
      (_asset, _horizon, _nowMs, country, advertiserId) => {
        builds.push(advertiserId);
        return { resolved_geo: country, credited: advertiserId ?? null };
      },
      100,
      () => now,
    );
    const pushed: string[] = [];
    live.onPush(
      (_topic, country) => pushed.push(country),
      () => true, // every public variant has subscribers
    );
    const read = (advertiser?: string) =>
      JSON.parse(live.latest('BTC', 5, 'US', advertiser).body.toString()) as { credited: string | null };
    expect(read('acme').credited).toBe('acme');
    expect(read('zenith').credited).toBe('zenith');
    expect(read().credited).toBeNull();
    expect(read('acme').credited).toBe('acme');
    expect(builds).toEqual(['acme', 'zenith', undefined]); // the second acme read was served from memory
    now += 300;
    fire('tick');
    expect(pushed).toEqual(['US']); // only the public variant
    expect(read('acme').credited).toBe('acme'); // within the second: as built
    expect(builds).toEqual(['acme', 'zenith', undefined, undefined]);
    now += 700;
    expect(read('acme').credited).toBe('acme'); // a second old: rebuilt on read
    expect(builds).toEqual(['acme', 'zenith', undefined, undefined, 'acme']);
    live.stop();
  });
});
