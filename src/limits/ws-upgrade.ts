/** The `ws_upgrade` limit as the WebSocket upgrade asks it: decided from memory at once, charged after. */
import { type Clock, systemClock } from '../model/clock.js';
import type { Problem } from '../model/problem.js';
import type { RateLimits } from './rate-limits.js';

export interface UpgradeLimit {
  /** The refusal for an address over its allowance, from memory (as the widget path's limits). */
  blocked(address: string): Problem | undefined;
  /** Charges an upgrade to the address. */
  charge(address: string): void;
}

export function upgradeLimit(limits: RateLimits, now: Clock = systemClock): UpgradeLimit {
  return {
    blocked: (address) => (limits.anyBlocked ? limits.blockedNow('ws_upgrade', address, now()) : undefined),
    charge: (address) => limits.charge('ws_upgrade', address),
  };
}
