/**
 * The peer address of a uWS response as text. IPv4 (4 bytes, or mapped into IPv6 on a dual-stack
 * socket) is formatted here from the binary form: uWS's own text form goes through printf and an
 * extra buffer, a measurable share of a cached widget request. IPv6 keeps uWS's text.
 */
import type { HttpResponse } from 'uWebSockets.js';

export function remoteAddress(res: Pick<HttpResponse, 'getRemoteAddress' | 'getRemoteAddressAsText'>): string {
  const b = new Uint8Array(res.getRemoteAddress());
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  if (b.length === 16 && b[10] === 0xff && b[11] === 0xff && b[0] === 0 && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[4] === 0 && b[5] === 0 && b[6] === 0 && b[7] === 0 && b[8] === 0 && b[9] === 0) {
    return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  }
  return Buffer.from(res.getRemoteAddressAsText()).toString();
}
