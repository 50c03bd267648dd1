/**
 * Structure of a nested deadline ladder (docs/sources.md, invariant 4): "before April" implies
 * "before August", so at one venue the earlier outcome is never dearer than the later one. Broken
 * when the earlier outcome's bid is above the later one's ask (anyone could buy the later and sell
 * the earlier for a sure profit), or, with no bid to go by, its ask is more than
 * {@link LADDER_ASK_SLACK} above the later ask. Pure.
 */
import type { MarketEvent } from '../../model/index.js';

/**
 * Without a bid only asks can be compared, and a thin book's ask may sit a few cents above a deeper
 * later one's: five cents (a wide book's spread) is allowed before asks say the ladder is broken.
 */
export const LADDER_ASK_SLACK = 0.05;

/** The outcomes (by name) of each operator whose ladder is broken in `ev`, with the reason; empty for events that are no ladder. */
export function ladderBreaks(ev: MarketEvent): Map<string, { outcomes: Set<string>; reason: string }> {
  const out = new Map<string, { outcomes: Set<string>; reason: string }>();
  if (!ev.nested) return out;
  const operators = new Set(ev.outcomes.flatMap((o) => o.quotes.map((q) => q.operatorId)));
  for (const op of operators) {
    const rungs = ev.outcomes.flatMap((o) => {
      const q = o.quotes.find((x) => x.operatorId === op);
      return q ? [{ name: o.name, q }] : [];
    });
    for (let i = 1; i < rungs.length; i++) {
      const [earlier, later] = [rungs[i - 1]!, rungs[i]!];
      const floor = earlier.q.yesBid ?? earlier.q.yesPrice - LADDER_ASK_SLACK;
      if (floor <= later.q.yesPrice + 1e-9) continue;
      const what = earlier.q.yesBid !== undefined ? `bid ${earlier.q.yesBid}` : `ask ${earlier.q.yesPrice}`;
      out.set(op, {
        outcomes: new Set([earlier.name, later.name]),
        reason: `ladder broken: "${earlier.name}" ${what} above "${later.name}" ask ${later.q.yesPrice} (an earlier deadline cannot be likelier)`,
      });
      break;
    }
  }
  return out;
}
