/**
 * Advertiser authentication for /advertiser routes: x-advertiser-id + x-api-key. Failed attempts
 * are counted per client address; an address over AUTH_FAILURE_LIMIT is blocked for
 * AUTH_FAILURE_BLOCK_SECONDS (429) before any key is checked. Each failure is logged at warn with
 * a hash of the address, never the address or the key. An authenticated advertiser then has its
 * own request allowance (RATE_LIMIT_ADVERTISER), charged after the reply in batches; every answer
 * to it says what is left (RateLimit-Policy and RateLimit, as on a 429).
 *
 * An advertiser's steady traffic never waits on Redis: a key that verified recently and blocks
 * held in memory on every process (limits/limit-blocks.ts) decide it. Redis is asked only when the key is
 * not known to be good: then the address's block is read there too, so even a process that missed
 * a block notice refuses a blocked address before checking its key.
 *
 * A block never refuses a key that verified from that address within a block's length (it is still
 * checked): a forgotten server with an old key must not lock out its neighbours on the same egress
 * address. Each failure also notes the address against the advertiser id it named, so fixing that
 * advertiser's keys with the CLI lifts the blocks its servers earned (limits/auth-failure-blocks.ts).
 */
import { ADVERTISER_ID } from '../auth/advertiser-keys.js';
import type { VerifiedKeys } from '../auth/verified-keys.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { authFailures, countAdvertiserRequest } from '../metrics/http.js';
import type { Logger } from '../runtime/log.js';
import { visitorId } from '../tracking/click-counter.js';
import { Problem } from '../model/problem.js';
import type { Handler, Request } from '../transport/types.js';
import type { Stage } from './pipeline.js';

const CHALLENGE = { 'www-authenticate': 'ApiKey realm="predictwire", header="x-api-key"' };

/** What the auth stage checks keys and counts failures with. */
export interface AuthDeps {
  verifiedKeys: Pick<VerifiedKeys, 'verify' | 'verifiedRecently' | 'verifiedFrom'>;
  limits: Pick<RateLimits, 'anyBlocked' | 'blockedNow' | 'blocked' | 'take' | 'charge' | 'usage'>;
  /** Notes that an address failed as an advertiser id (limits/auth-failure-blocks.ts, `authFailureNotes`). */
  noteFailure(id: string, address: string): void;
  /** The client's address key (geo/address-key.ts). */
  address(req: Request): string;
  log: Logger;
  now(): number;
}

/** The auth stage: the next stage runs only for a valid, active advertiser key. */
export const advertiserAuthenticated =
  (deps: AuthDeps): Stage =>
  (next) =>
    requireAdvertiser(deps, next);

/**
 * The allowance stage, after authentication: the advertiser's own allowance, from memory; the
 * point is taken after the reply, and the answer says what is left.
 */
export const advertiserAllowance =
  ({ limits, now }: Pick<AuthDeps, 'limits' | 'now'>): Stage =>
  (next) =>
  (req) => {
    // The id whose key the auth stage checked.
    const id = req.headers['x-advertiser-id']!;
    const nowMs = now();
    const over = limits.anyBlocked ? limits.blockedNow('advertiser', id, nowMs) : undefined;
    if (over) throw over;
    limits.charge('advertiser', id);
    req.ownHeaders = limits.usage(id, nowMs);
    countAdvertiserRequest(id);
    return next(req);
  };

function requireAdvertiser(deps: AuthDeps, handler: Handler): Handler {
  /** Counts a failure; the 429 problem when this one used up the address's allowance. */
  const failed = async (req: Request, address: string, reason: 'missing' | 'invalid') => {
    authFailures.labels(reason).inc();
    const id = req.headers['x-advertiser-id'];
    deps.log.warn(
      { request_id: req.id, address_hash: visitorId(address), advertiser_id: id?.slice(0, 64), reason, path: req.path },
      'advertiser authentication failed',
    );
    if (id && ADVERTISER_ID.test(id)) deps.noteFailure(id, address);
    return deps.limits.take('auth_failures', address);
  };

  /** Whether the request's key verified from `address` lately: then the address's block does not apply to it. */
  const waived = (req: Request, address: string) => {
    const id = req.headers['x-advertiser-id'];
    const key = req.headers['x-api-key'];
    return !!id && !!key && deps.verifiedKeys.verifiedFrom(address, id, key);
  };

  return (req: Request) => {
    if (deps.limits.anyBlocked) {
      const address = deps.address(req);
      const blocked = !waived(req, address) && deps.limits.blockedNow('auth_failures', address, deps.now());
      if (blocked) {
        authFailures.labels('blocked').inc();
        throw blocked;
      }
    }
    const id = req.headers['x-advertiser-id'];
    const key = req.headers['x-api-key'];
    if (id && key && deps.verifiedKeys.verifiedRecently(id, key)) return handler(req);
    return checkFully(req);
  };

  async function checkFully(req: Request) {
    const address = deps.address(req);
    const blocked = !waived(req, address) && (await deps.limits.blocked('auth_failures', address));
    if (blocked) {
      authFailures.labels('blocked').inc();
      throw blocked;
    }
    const id = req.headers['x-advertiser-id'];
    const key = req.headers['x-api-key'];
    if (!id || !key) {
      const missing = [!id && 'x-advertiser-id', !key && 'x-api-key'].filter(Boolean) as string[];
      throw (
        (await failed(req, address, 'missing')) ??
        new Problem(
          401,
          'missing_credentials',
          `Send both x-advertiser-id and x-api-key headers.`,
          missing.map((param) => ({ param, message: 'header is required' })),
          CHALLENGE,
        )
      );
    }
    let valid: boolean;
    try {
      valid = await deps.verifiedKeys.verify(id, key, address);
    } catch {
      // Redis unreachable: say so at once, rather than a 500, a misleading 401 or a hang.
      authFailures.labels('unavailable').inc();
      throw new Problem(503, 'data_unavailable', 'Credentials cannot be checked right now; try again shortly.', [], {
        'retry-after': '5',
      });
    }
    if (!valid) {
      throw (
        (await failed(req, address, 'invalid')) ??
        new Problem(
          401,
          'invalid_credentials',
          'The advertiser id and API key do not match an active key.',
          [],
          CHALLENGE,
        )
      );
    }
    return handler(req);
  }
}
