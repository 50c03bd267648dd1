/**
 * The client's address: the socket peer, unless the peer is a trusted proxy, in which case
 * X-Forwarded-For is walked from the right (the entry the nearest proxy appended) leftwards,
 * skipping trusted hops; the first untrusted hop is the client. Entries left of it were written
 * by the client or by proxies we do not know, so they are never believed.
 */
import type { AddressMatcher } from './cidr.js';
import { parseForwardedEntry, parseIp, type IpAddress } from './ip.js';

/**
 * Resolves the client address. Returns undefined when the peer address is unreadable or a
 * trusted proxy forwarded a malformed entry (then nothing in the chain can be trusted).
 */
export function clientAddress(
  remoteAddress: string,
  forwardedFor: string | undefined,
  trusted: AddressMatcher,
): IpAddress | undefined {
  const peer = parseIp(remoteAddress);
  if (!peer || trusted.size === 0 || !trusted.matches(peer) || !forwardedFor) return peer;
  const hops = forwardedFor
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  let last: IpAddress = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseForwardedEntry(hops[i]!);
    if (!hop) return undefined;
    if (!trusted.matches(hop)) return hop;
    last = hop;
  }
  // Every hop is one of our proxies: the leftmost is as far as the chain goes.
  return last;
}
