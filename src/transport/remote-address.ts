/**
 * The peer address of a uWS response as text. IPv4 (4 bytes, or mapped into IPv6 on a dual-stack
 * socket) is formatted here from the binary form: uWS's own text form goes through printf and an
 * extra buffer, a measurable share of a cached widget request. IPv6 keeps uWS's text.
 *
 * Each IPv4 address's text is kept (by its 32-bit value), so a returning visitor's address is the
 * same string every time: no per-request formatting, and the lookups keyed by it (geo, limits) hash
 * a string whose hash is already known.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { LRUCache } from 'lru-cache';

const ipv4Text = new LRUCache<number, string>({ max: 50_000 });

function ipv4(b: Uint8Array, at: number): string {
  const value = ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
  let text = ipv4Text.get(value);
  if (text === undefined) ipv4Text.set(value, (text = `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`));
  return text;
}

export function remoteAddress(res: Pick<HttpResponse, 'getRemoteAddress' | 'getRemoteAddressAsText'>): string {
  const b = new Uint8Array(res.getRemoteAddress());
  if (b.length === 4) return ipv4(b, 0);
  if (
    b.length === 16 &&
    b[10] === 0xff &&
    b[11] === 0xff &&
    b[0] === 0 &&
    b[1] === 0 &&
    b[2] === 0 &&
    b[3] === 0 &&
    b[4] === 0 &&
    b[5] === 0 &&
    b[6] === 0 &&
    b[7] === 0 &&
    b[8] === 0 &&
    b[9] === 0
  ) {
    return ipv4(b, 12);
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}
