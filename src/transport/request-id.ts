/**
 * X-Request-Id: a caller's id is kept when it is short and plain (it ends up in logs and
 * problem bodies), otherwise we make one. Ours are a per-process random prefix and a counter:
 * unique across processes and far cheaper than a UUID per request on the hot path.
 *
 * Every response carries the id, but few requests are logged: so ours is a number until someone
 * reads it as text (`requestIdText`), and the response header is written from bytes
 * (`requestIdBytes`), with no string made per request.
 */
import { randomBytes } from 'node:crypto';

const VALID = /^[A-Za-z0-9._:-]{1,128}$/;
const PREFIX = `${randomBytes(6).toString('base64url')}-`;
let counter = 0;

/** The caller's id when it is valid, else undefined (the request then gets a number). */
export const givenRequestId = (given: string | undefined): string | undefined =>
  given !== undefined && VALID.test(given) ? given : undefined;

/** A fresh number for a request without a valid id of its own. */
export function nextRequestNumber(): number {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return counter;
}

/** The text of our id number `n`. */
export const requestIdText = (n: number): string => `${PREFIX}${n.toString(36)}`;

const DIGITS = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz', 'latin1');
const PREFIX_BYTES = Buffer.from(PREFIX, 'latin1');
/** 36^k for k = 0..10: a number below 36^k has at most k digits. */
const POWERS = Array.from({ length: 11 }, (_, k) => 36 ** k);
/** One buffer per digit count, the prefix written once. */
const byLength: Uint8Array[] = [];

/**
 * `requestIdText(n)` as bytes, in a buffer reused by the next call: for a uWS write, which copies
 * at once (a string would be encoded by uWS on every request).
 */
export function requestIdBytes(n: number): ArrayBuffer {
  let digits = 1;
  while (digits < POWERS.length && n >= POWERS[digits]!) digits++;
  let bytes = byLength[digits];
  if (bytes === undefined) {
    bytes = new Uint8Array(PREFIX_BYTES.length + digits);
    bytes.set(PREFIX_BYTES);
    byLength[digits] = bytes;
  }
  // Integer division while n fits 31 bits (the first two billion requests), float after.
  const small = n <= 0x7fffffff;
  for (let i = bytes.length - 1, v = n; i >= PREFIX_BYTES.length; i--) {
    bytes[i] = DIGITS[v % 36]!;
    v = small ? (v / 36) | 0 : Math.floor(v / 36);
  }
  return bytes.buffer as ArrayBuffer;
}
