/**
 * Snapshot-level quality of an events snapshot against the last good one: a venue that vanishes,
 * or too many events, outcomes or quotes lost. Item-level faults were screened before
 * (screen-events.ts). Pure.
 */
import type { EventsData } from '../../model/index.js';
import { lossViolation, type QualityOptions } from './options.js';

const quotesBy = (data: EventsData) => {
  const out = new Map<string, number>();
  for (const ev of data.events)
    for (const o of ev.outcomes) for (const q of o.quotes) out.set(q.operatorId, (out.get(q.operatorId) ?? 0) + 1);
  return out;
};

/** Violations of `next` against `prev` (loss), empty when it may be published. */
export function checkEvents(prev: EventsData | undefined, next: EventsData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  if (!prev) return out;
  // Events that closed since are expected to go; only the still-open ones count as lost.
  const t = now.getTime();
  const live = prev.events.filter((e) => Date.parse(e.closesAt) > t);
  const nextSlugs = new Map(next.events.map((e) => [e.slug, e]));
  const loss = [
    lossViolation('open events', live.length, live.filter((e) => nextSlugs.has(e.slug)).length, opts.maxLossShare),
    lossViolation(
      'outcomes',
      live.reduce((n, e) => n + e.outcomes.length, 0),
      live.reduce(
        (n, e) => n + e.outcomes.filter((o) => nextSlugs.get(e.slug)?.outcomes.some((x) => x.name === o.name)).length,
        0,
      ),
      opts.maxLossShare,
    ),
  ];
  out.push(...loss.filter((v): v is string => v !== undefined));
  const before = quotesBy({ events: live });
  const after = quotesBy(next);
  for (const [op, n] of before) {
    const kept = after.get(op) ?? 0;
    if (kept === 0) out.push(`venue ${op} vanished (quoted ${n} outcomes, now none)`);
    else {
      const v = lossViolation(`${op} quotes`, n, kept, opts.maxLossShare);
      if (v) out.push(v);
    }
  }
  return out;
}
