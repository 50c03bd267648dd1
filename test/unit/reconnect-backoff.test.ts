import { describe, expect, it } from 'vitest';
import { RECONNECT_POLICY, ReconnectBackoff } from '../../src/sources/stream/reconnect.js';

describe('feed reconnect backoff', () => {
  const opts = RECONNECT_POLICY;

  it('keeps growing through an open-then-drop loop: a short-lived connection is no reset', () => {
    const b = new ReconnectBackoff(opts);
    let t = 0;
    let total = 0;
    const delays: number[] = [];
    // Error-then-close right after opening, 20 times in a row.
    for (let i = 0; i < 20; i++) {
      b.opened(t);
      t += 100;
      const d = b.closed(t);
      delays.push(d);
      total += d;
      t += d;
      expect(b.wasHealthy).toBe(false);
    }
    // The old behaviour (reset on the first message) reconnected every ~500 ms: 20 connections in
    // ~10 s. Now the waits grow to the cap; 20 reconnects take minutes.
    expect(Math.max(...delays)).toBeGreaterThan(10_000);
    expect(total).toBeGreaterThan(120_000);
    expect(delays.every((d) => d <= opts.maxMs)).toBe(true);
  });

  it('starts over after a connection stayed healthy', () => {
    const b = new ReconnectBackoff(opts);
    let t = 0;
    const grown: number[] = [];
    for (let i = 0; i < 20; i++) {
      grown.push(b.closed(t));
      t += grown.at(-1)!;
    }
    expect(Math.max(...grown)).toBe(opts.maxMs);
    b.opened(t);
    t += 31_000;
    const after = b.closed(t);
    expect(b.wasHealthy).toBe(true);
    expect(after).toBeLessThanOrEqual(2 * opts.baseMs);
  });
});
