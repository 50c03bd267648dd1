/**
 * Quality checks of an events snapshot against the last good one: a venue that vanishes, too many
 * events, outcomes or quotes lost, prices outside (0, 1), and binary books whose YES and NO asks
 * sum far below 1 (free money: the feed is broken, not the market). Pure.
 */
import type { EventsData } from '../../model/index.js';
import { lossViolation, type QualityOptions } from './options.js';

const quotesBy = (data: EventsData) => {
  const out = new Map<string, number>();
  for (const ev of data.events) for (const o of ev.outcomes) for (const q of o.quotes) out.set(q.operatorId, (out.get(q.operatorId) ?? 0) + 1);
  return out;
};

/** Violations of `next` on its own (sanity) and against `prev` (loss), empty when it may be published. */
export function checkEvents(prev: EventsData | undefined, next: EventsData, now: Date, opts: QualityOptions): string[] {
  const out: string[] = [];
  for (const ev of next.events) {
    for (const o of ev.outcomes) {
      for (const q of o.quotes) if (!(q.yesPrice > 0 && q.yesPrice < 1)) out.push(`${ev.slug}/${o.name}: ${q.operatorId} price ${q.yesPrice} outside (0, 1)`);
    }
    // Only a Yes/No pair is complementary; two outcomes left of a ladder ("before April", "before 2027") are not.
    if (ev.outcomes.length !== 2 || ev.outcomes.map((o) => o.name.toLowerCase()).sort().join('/') !== 'no/yes') continue;
    const [a, b] = ev.outcomes;
    for (const qa of a!.quotes) {
      const qb = b!.quotes.find((q) => q.operatorId === qa.operatorId);
      if (qb && qa.yesPrice + qb.yesPrice < opts.minAskSum) {
        out.push(`${ev.slug}: ${qa.operatorId} asks ${qa.yesPrice} + ${qb.yesPrice} sum below ${opts.minAskSum}`);
      }
    }
  }
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
      live.reduce((n, e) => n + e.outcomes.filter((o) => nextSlugs.get(e.slug)?.outcomes.some((x) => x.name === o.name)).length, 0),
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
