/**
 * Addresses that no country database can place: loopback, private, link-local, shared (CGNAT),
 * documentation, multicast and other special-purpose ranges (IANA special-purpose registries).
 * A request from one of these falls back to fallback_geo / DEFAULT_GEO without a lookup.
 */
import { AddressMatcher } from './cidr.js';
import type { IpAddress } from './ip.js';

const NON_PUBLIC = new AddressMatcher([
  // IPv4
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  // IPv6 (IPv4-mapped addresses were unwrapped to IPv4 before they get here)
  '::/128',
  '::1/128',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
]);

/** True when `ip` is in a loopback, private or otherwise reserved range. */
export function isNonPublic(ip: IpAddress): boolean {
  return NON_PUBLIC.matches(ip);
}
