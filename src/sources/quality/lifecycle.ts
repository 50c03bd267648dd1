/**
 * Lifecycle (docs/sources.md, invariant 5): a market past its close time, or with a result, is not
 * open whatever its status field says. A venue updates the status after the fact (the recorded
 * Kalshi listing still says "active" for a market that closed in April), so the close time and the
 * result are read beside it; the contradiction is reported (class `lifecycle`). Pure.
 */
import type { Dropped } from './dropped.js';

/**
 * Why a market whose status says open is closed all the same, as a report; undefined when it is
 * open. `result` is the venue's settlement ("yes", "no"; empty while trading); `now` absent skips
 * the time check (a caller with no clock, such as the matcher's offline listing).
 */
export function lifecycleFault(
  id: string,
  status: string,
  closesAt: string | undefined,
  result: string | undefined,
  now: Date | undefined,
): Dropped | undefined {
  if (result) return { id, reason: `status ${status} but settled (result ${result}): not shown`, class: 'lifecycle' };
  if (now && closesAt && Date.parse(closesAt) <= now.getTime())
    return { id, reason: `status ${status} but its close time ${closesAt} has passed: not shown`, class: 'lifecycle' };
  return undefined;
}
