/** Advertiser authentication for /advertiser routes: x-advertiser-id + x-api-key. */
import type { AdvertiserKeys } from '../auth/advertiser-keys.js';
import { Problem } from './problem.js';
import type { Handler, Request } from './types.js';

const CHALLENGE = { 'www-authenticate': 'ApiKey realm="predictwire", header="x-api-key"' };

/** Wraps a handler so it runs only for a valid, active advertiser key. */
export function requireAdvertiser(keys: AdvertiserKeys, handler: Handler): Handler {
  return async (req: Request) => {
    const id = req.headers['x-advertiser-id'];
    const key = req.headers['x-api-key'];
    if (!id || !key) {
      const missing = [!id && 'x-advertiser-id', !key && 'x-api-key'].filter(Boolean) as string[];
      throw new Problem(
        401,
        'missing_credentials',
        `Send both x-advertiser-id and x-api-key headers.`,
        missing.map((param) => ({ param, message: 'header is required' })),
        CHALLENGE,
      );
    }
    let valid: boolean;
    try {
      valid = await keys.verify(id, key);
    } catch {
      // Redis unreachable: say so, rather than a 500 or a misleading 401.
      throw new Problem(503, 'data_unavailable', 'Credentials cannot be checked right now; try again shortly.', [], { 'retry-after': '5' });
    }
    if (!valid) {
      throw new Problem(401, 'invalid_credentials', 'The advertiser id and API key do not match an active key.', [], CHALLENGE);
    }
    return handler(req);
  };
}
