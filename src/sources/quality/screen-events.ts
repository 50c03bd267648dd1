/**
 * Item-level quality of an events snapshot (the gate's first pass, before the snapshot-level loss
 * checks in events.ts): an event past its close is left out; a Yes/No pair whose asks at one venue
 * sum implausibly low or high, or two rungs of a deadline ladder in the wrong order (ladders.ts),
 * are dropped (class `inconsistent`); a quote that jumped more than `maxJump` since the last good
 * snapshot without new volume is held at its last good value (class `held`) until the move has
 * persisted `jumpHoldMs`; every quote of the last good snapshot that is gone is listed (class
 * `lost`). Pure.
 */
import type { EventsData, MarketEvent, Quote } from '../../model/index.js';
import type { Dropped } from './dropped.js';
import { heldSince, lostItems } from './carried.js';
import { ladderBreaks } from './ladders.js';
import type { QualityOptions } from './options.js';

const quoteId = (ev: MarketEvent, outcome: string, q: Quote) => `${ev.slug}/${outcome}/${q.operatorId}`;
const isYesNo = (ev: MarketEvent) =>
  ev.outcomes.length === 2 &&
  ev.outcomes
    .map((o) => o.name.toLowerCase())
    .sort()
    .join('/') === 'no/yes';

/** Operators whose Yes and No asks in `ev` contradict each other, with the reason. */
function inconsistentPairs(ev: MarketEvent, opts: QualityOptions): Map<string, string> {
  const out = new Map<string, string>();
  if (!isYesNo(ev)) return out;
  const [a, b] = ev.outcomes;
  for (const qa of a!.quotes) {
    const qb = b!.quotes.find((q) => q.operatorId === qa.operatorId);
    if (!qb) continue;
    const sum = qa.yesPrice + qb.yesPrice;
    if (sum < opts.minAskSum)
      out.set(qa.operatorId, `asks ${qa.yesPrice} + ${qb.yesPrice} sum below ${opts.minAskSum}`);
    else if (sum > opts.maxAskSum)
      out.set(qa.operatorId, `asks ${qa.yesPrice} + ${qb.yesPrice} sum above ${opts.maxAskSum}`);
  }
  return out;
}

/** `next` with inconsistent pairs dropped and implausible jumps held; what was dropped, held or lost. */
export function screenEvents(
  prev: EventsData | undefined,
  next: EventsData,
  now: Date,
  opts: QualityOptions,
  carried: readonly Dropped[],
): { data: EventsData; dropped: Dropped[] } {
  const dropped: Dropped[] = [];
  const before = new Map<string, Quote>();
  for (const ev of prev?.events ?? [])
    for (const o of ev.outcomes) for (const q of o.quotes) before.set(quoteId(ev, o.name, q), q);
  const events: MarketEvent[] = [];
  // Lifecycle: an event past its close is over, whatever its markets still say; it goes unreported
  // (closing is no fault) and does not count as lost.
  for (const ev of next.events.filter((e) => Date.parse(e.closesAt) > now.getTime())) {
    const bad = inconsistentPairs(ev, opts);
    for (const [op, why] of bad) dropped.push({ id: `${ev.slug}/${op}`, reason: why, class: 'inconsistent' });
    const ladder = ladderBreaks(ev);
    for (const [op, { reason }] of ladder) dropped.push({ id: `${ev.slug}/${op}`, reason, class: 'inconsistent' });
    const outcomes = ev.outcomes
      .map((o) => ({
        ...o,
        quotes: o.quotes
          .filter((q) => !bad.has(q.operatorId) && !ladder.get(q.operatorId)?.outcomes.has(o.name))
          .map((q) => {
            const id = quoteId(ev, o.name, q);
            const was = before.get(id);
            if (
              !was ||
              Math.abs(q.yesPrice - was.yesPrice) <= opts.maxJump ||
              (q.volume24hUsd ?? 0) > (was.volume24hUsd ?? Infinity)
            )
              return q;
            const since = heldSince(carried, id, now);
            if (now.getTime() - since.getTime() >= opts.jumpHoldMs) return q;
            dropped.push({
              id,
              reason: `price ${was.yesPrice} → ${q.yesPrice} without new volume: held at ${was.yesPrice}`,
              class: 'held',
              since: since.toISOString(),
            });
            return was;
          }),
      }))
      .filter((o) => o.quotes.length > 0);
    if (outcomes.length > 0) events.push({ ...ev, outcomes });
  }
  const data = { ...next, events };
  const present = new Map<string, string>();
  for (const ev of prev?.events ?? [])
    for (const o of ev.outcomes) for (const q of o.quotes) present.set(quoteId(ev, o.name, q), ev.closesAt);
  const after = new Set<string>();
  for (const ev of events) for (const o of ev.outcomes) for (const q of o.quotes) after.add(quoteId(ev, o.name, q));
  dropped.push(...lostItems(present, after, carried, now));
  return { data, dropped };
}
