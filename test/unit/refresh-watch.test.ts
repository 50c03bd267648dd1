/** The worker's refresh watch: a schedule is overdue after its intervals times the limit plus the slack, per schedule, from its last finished run. */
import { describe, expect, it } from 'vitest';
import { RefreshWatch, SLACK_MS } from '../../workers/refresh-watch.js';
import type { Schedule } from '../../workers/schedules.js';

const SCHEDULES: Schedule[] = [
  { id: 'events', name: 'refresh-events', everyMs: 5_000 },
  { id: 'fx', name: 'refresh-fx', everyMs: 3_600_000 },
];

describe('RefreshWatch', () => {
  it('is healthy until a schedule has gone its intervals times the limit plus the slack without a finished run', () => {
    let now = 0;
    const watch = new RefreshWatch(SCHEDULES, 3, () => now);
    now = 3 * 5_000 + SLACK_MS;
    expect(watch.health()).toEqual({ ok: true, overdue: {} });
    now += 1_000;
    expect(watch.health()).toEqual({ ok: false, overdue: { events: Math.round(now / 1000) } });
    watch.finished('events');
    expect(watch.health().ok).toBe(true);
  });

  it('counts each schedule from its own last run, and from the start again after an outage', () => {
    let now = 0;
    const watch = new RefreshWatch(SCHEDULES, 3, () => now);
    now = 3 * 3_600_000 + SLACK_MS + 1;
    watch.finished('events');
    expect(Object.keys(watch.health().overdue)).toEqual(['fx']);
    watch.restart(); // Redis was away: that time does not count
    expect(watch.health().ok).toBe(true);
    watch.finished('unknown'); // a job of no schedule changes nothing
    expect(watch.health().ok).toBe(true);
  });
});
