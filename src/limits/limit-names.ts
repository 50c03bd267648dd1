/**
 * The rate limits' names and where their counts live in Redis: apart from the limiter itself, so
 * that the advertiser CLI, which lifts failed-authentication blocks, does not load it.
 */
export type LimitName = 'click' | 'ws_upgrade' | 'readyz' | 'variant_build' | 'advertiser' | 'auth_failures';

/** Where a limit's counts live in Redis: `{prefix}:{key}` (rate-limiter-flexible's naming). */
export const limitPrefix = (name: LimitName) => `pw:rl:${name}`;
