/**
 * A provider's request quota as its response headers report it (The Odds API:
 * x-requests-remaining / x-requests-used / x-requests-last). When nothing remains we stop calling
 * until the reset time instead of burning requests on 401/429 answers. A 429 with a long
 * Retry-After defers calls the same way. The state can be saved and restored (quota-store.ts), so
 * a restarted process knows what the provider said before.
 */
import { z } from 'zod';

export interface QuotaState {
  remaining?: number;
  used?: number;
  /** Cost of the last request. */
  last?: number;
  /** No calls before this time; set when remaining reaches 0. */
  blockedUntil?: Date;
  /** No calls before this time either: the provider asked so (429 with Retry-After). */
  deferredUntil?: Date;
}

/** QuotaState as it is saved (times as ISO strings). */
export const SavedQuota = z.object({
  remaining: z.number().finite().optional(),
  used: z.number().finite().optional(),
  last: z.number().finite().optional(),
  blockedUntil: z.iso.datetime().optional(),
  deferredUntil: z.iso.datetime().optional(),
});
export type SavedQuota = z.infer<typeof SavedQuota>;

export interface QuotaHeaders {
  remaining: string;
  used: string;
  last?: string;
  /** Header carrying seconds until the quota resets, when the provider sends one. */
  reset?: string;
}

/** Tracks one provider's quota across calls. */
export class QuotaTracker {
  private state: QuotaState = {};

  constructor(
    private readonly headers: QuotaHeaders,
    /** Used when remaining hits 0 and the provider gives no reset time (monthly quotas). */
    private readonly defaultBlockMs: number,
  ) {}

  /** The current view of the quota (a copy). */
  snapshot(): QuotaState {
    return { ...this.state };
  }

  /** The state to save. */
  saved(): SavedQuota {
    const { blockedUntil, deferredUntil, ...counts } = this.state;
    return {
      ...counts,
      ...(blockedUntil ? { blockedUntil: blockedUntil.toISOString() } : {}),
      ...(deferredUntil ? { deferredUntil: deferredUntil.toISOString() } : {}),
    };
  }

  /** Takes over a saved state (at start, before any call of this process). */
  restore(saved: SavedQuota): void {
    const { blockedUntil, deferredUntil, ...counts } = saved;
    this.state = {
      ...counts,
      ...(blockedUntil ? { blockedUntil: new Date(blockedUntil) } : {}),
      ...(deferredUntil ? { deferredUntil: new Date(deferredUntil) } : {}),
    };
  }

  /** The provider asked for no call before `until` (a long Retry-After). */
  defer(until: Date): void {
    this.state.deferredUntil = until;
  }

  /** When calls are deferred at `now` (Retry-After), the time they may resume; otherwise undefined. */
  deferredUntil(now: Date): Date | undefined {
    const until = this.state.deferredUntil;
    return until && until.getTime() > now.getTime() ? until : undefined;
  }

  /** When calls are blocked at `now`, the time they may resume; otherwise undefined. */
  blockedUntil(now: Date): Date | undefined {
    const until = this.state.blockedUntil;
    if (until && until.getTime() > now.getTime()) return until;
    return undefined;
  }

  /**
   * A refusal that says the quota is spent without quota headers (The Odds API: 401 with
   * OUT_OF_USAGE_CREDITS in the body) blocks calls like remaining = 0 would.
   */
  observeRefusal(status: number, body: string, now: Date): void {
    if ((status === 401 || status === 429) && /OUT_OF_USAGE_CREDITS|quota.*(exceeded|exhausted)/i.test(body)) {
      this.state.remaining = 0;
      this.state.blockedUntil = new Date(now.getTime() + this.defaultBlockMs);
    }
  }

  /** Reads the quota headers of a response (any status: failed calls may cost too). */
  observe(h: Headers, now: Date): void {
    const num = (name: string | undefined): number | undefined => {
      if (!name) return undefined;
      const v = h.get(name);
      if (v === null || v.trim() === '') return undefined;
      const n = Number(v);
      return Number.isFinite(n) ? n : undefined;
    };
    const remaining = num(this.headers.remaining);
    const used = num(this.headers.used);
    const last = num(this.headers.last);
    if (remaining !== undefined) this.state.remaining = remaining;
    if (used !== undefined) this.state.used = used;
    if (last !== undefined) this.state.last = last;
    if (remaining !== undefined && remaining <= 0) {
      const resetSec = num(this.headers.reset);
      const ms = resetSec !== undefined ? resetSec * 1000 : this.defaultBlockMs;
      this.state.blockedUntil = new Date(now.getTime() + ms);
    } else if (remaining !== undefined) {
      delete this.state.blockedUntil;
    }
  }
}
