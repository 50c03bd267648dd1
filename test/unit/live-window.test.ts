import { describe, expect, it } from 'vitest';
import { tickMaySetStrike, windowAt } from '../../src/live/window.js';

const t = (iso: string) => Date.parse(iso);

describe('windowAt', () => {
  it('starts a new 5-minute window exactly on the boundary', () => {
    const w = windowAt(t('2026-11-22T14:05:00.000Z'), 5);
    expect(w).toEqual({
      horizonMinutes: 5,
      startMs: t('2026-11-22T14:05:00.000Z'),
      endMs: t('2026-11-22T14:10:00.000Z'),
    });
  });

  it('puts 1 ms before a boundary in the previous window', () => {
    const w = windowAt(t('2026-11-22T14:04:59.999Z'), 5);
    expect(w.startMs).toBe(t('2026-11-22T14:00:00.000Z'));
    expect(w.endMs).toBe(t('2026-11-22T14:05:00.000Z'));
  });

  it('floors a mid-window instant to the clock-aligned start', () => {
    // 14:07:31.250 lies in [14:05, 14:10)
    const w = windowAt(t('2026-11-22T14:07:31.250Z'), 5);
    expect(new Date(w.startMs).toISOString()).toBe('2026-11-22T14:05:00.000Z');
    expect(new Date(w.endMs).toISOString()).toBe('2026-11-22T14:10:00.000Z');
    expect(w.endMs - w.startMs).toBe(5 * 60_000);
  });

  it('aligns 15-minute windows to :00, :15, :30 and :45', () => {
    const cases: Array<[string, string, string]> = [
      ['2026-11-22T14:00:00.000Z', '2026-11-22T14:00:00.000Z', '2026-11-22T14:15:00.000Z'],
      ['2026-11-22T14:14:59.999Z', '2026-11-22T14:00:00.000Z', '2026-11-22T14:15:00.000Z'],
      ['2026-11-22T14:15:00.000Z', '2026-11-22T14:15:00.000Z', '2026-11-22T14:30:00.000Z'],
      ['2026-11-22T14:29:59.999Z', '2026-11-22T14:15:00.000Z', '2026-11-22T14:30:00.000Z'],
      ['2026-11-22T14:30:00.000Z', '2026-11-22T14:30:00.000Z', '2026-11-22T14:45:00.000Z'],
      ['2026-11-22T14:44:59.999Z', '2026-11-22T14:30:00.000Z', '2026-11-22T14:45:00.000Z'],
      ['2026-11-22T14:45:00.000Z', '2026-11-22T14:45:00.000Z', '2026-11-22T15:00:00.000Z'],
      // Across midnight: the last window of the day ends at 00:00 of the next.
      ['2026-11-22T23:59:59.999Z', '2026-11-22T23:45:00.000Z', '2026-11-23T00:00:00.000Z'],
    ];
    for (const [at, start, end] of cases) {
      const w = windowAt(t(at), 15);
      expect({ at, start: new Date(w.startMs).toISOString(), end: new Date(w.endMs).toISOString() }).toEqual({
        at,
        start,
        end,
      });
      expect(w.horizonMinutes).toBe(15);
    }
  });

  it('gives consecutive windows that tile the clock without gaps', () => {
    const a = windowAt(t('2026-11-22T14:09:59.999Z'), 5);
    const b = windowAt(a.endMs, 5);
    expect(b.startMs).toBe(a.endMs);
    expect(b.endMs).toBe(t('2026-11-22T14:15:00.000Z'));
  });
});

describe('tickMaySetStrike', () => {
  const w = windowAt(t('2026-11-22T14:05:00.000Z'), 5);

  it('accepts ticks from the start (inclusive) to the start plus the lag (inclusive)', () => {
    expect(tickMaySetStrike(w.startMs, w, 2000)).toBe(true);
    expect(tickMaySetStrike(w.startMs + 2000, w, 2000)).toBe(true);
    expect(tickMaySetStrike(w.startMs + 2001, w, 2000)).toBe(false);
    expect(tickMaySetStrike(w.startMs - 1, w, 2000)).toBe(false);
  });

  it('refuses a tick minutes late, and anything at or after expiry whatever the lag', () => {
    expect(tickMaySetStrike(w.startMs + 120_000, w, 2000)).toBe(false);
    expect(tickMaySetStrike(w.endMs - 1, w, 600_000)).toBe(true);
    expect(tickMaySetStrike(w.endMs, w, 600_000)).toBe(false);
  });

  it('with a zero lag takes only a tick stamped exactly at the start', () => {
    expect(tickMaySetStrike(w.startMs, w, 0)).toBe(true);
    expect(tickMaySetStrike(w.startMs + 1, w, 0)).toBe(false);
  });
});
