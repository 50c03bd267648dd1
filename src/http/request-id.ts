/**
 * X-Request-Id: a caller's id is kept when it is short and plain (it ends up in logs and
 * problem bodies), otherwise we make one. Ours are a per-process random prefix and a counter:
 * unique across processes and far cheaper than a UUID per request on the hot path.
 */
import { randomBytes } from 'node:crypto';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;
const PREFIX = randomBytes(6).toString('base64url');
let counter = 0;

/** The request's id: `given` when valid, else a fresh one. */
export function requestId(given: string | undefined): string {
  if (given !== undefined && VALID.test(given)) return given;
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${PREFIX}-${counter.toString(36)}`;
}
