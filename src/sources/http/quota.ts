/**
 * A provider's request quota as its response headers report it (The Odds API:
 * x-requests-remaining / x-requests-used / x-requests-last). When nothing remains we stop calling
 * until the reset time instead of burning requests on 401/429 answers.
 */

export interface QuotaState {
  remaining?: number;
  used?: number;
  /** Cost of the last request. */
  last?: number;
  /** No calls before this time; set when remaining reaches 0. */
  blockedUntil?: Date;
}

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
