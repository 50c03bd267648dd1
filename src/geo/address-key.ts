/**
 * The key a client address is limited under: the IPv4 address itself, or the /64 an IPv6 address
 * belongs to (one subscriber usually holds a whole /64, so per-address limits on IPv6 would be
 * free to dodge).
 */
import type { IpAddress } from './ip.js';

/** `203.0.113.7`, `2001:db8:1:2::/64`, or `unknown` when the address could not be read. */
export function addressKey(ip: IpAddress | undefined): string {
  if (!ip) return 'unknown';
  if (ip.version === 4) return ip.text;
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
