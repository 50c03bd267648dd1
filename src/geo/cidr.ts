/**
 * Address ranges: `TRUST_PROXY` entries and the reserved ranges. An entry is an address (a
 * single-host range) or `address/prefix`; IPv4-mapped IPv6 ranges are turned into IPv4 ranges.
 */
import { BlockList } from 'node:net';
import { parseIp, type IpAddress } from './ip.js';

export interface Cidr {
  version: 4 | 6;
  bytes: Uint8Array;
  prefix: number;
}

/** Parses `a.b.c.d`, `a.b.c.d/n`, `v6` or `v6/n`; undefined when malformed. Host bits are ignored. */
export function parseCidr(text: string): Cidr | undefined {
  const s = text.trim();
  const slash = s.indexOf('/');
  const addrText = slash === -1 ? s : s.slice(0, slash);
  const prefixText = slash === -1 ? undefined : s.slice(slash + 1);
  const ip = parseIp(addrText);
  if (!ip || addrText.includes('%')) return undefined;
  const wasV6 = addrText.includes(':');
  const width = wasV6 ? 128 : 32;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  let prefix = prefixText === undefined ? width : Number(prefixText);
  if (prefix > width) return undefined;
  if (wasV6 && ip.version === 4) {
    // ::ffff:a.b.c.d/n covers IPv4 only when n keeps the whole ::ffff: prefix.
    if (prefix < 96) return undefined;
    prefix -= 96;
  }
  return { version: ip.version, bytes: ip.bytes, prefix };
}

/** The entries of `list` that are not an address or CIDR range. */
export function invalidRanges(list: readonly string[]): string[] {
  return list.filter((entry) => parseCidr(entry) === undefined);
}

const family = (version: 4 | 6) => (version === 4 ? 'ipv4' : 'ipv6');

/** Text of an address from its bytes (what BlockList takes). */
function addressText(version: 4 | 6, bytes: Uint8Array): string {
  if (version === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  return groups.join(':');
}

/** A set of ranges to test addresses against (node:net BlockList). */
export class AddressMatcher {
  readonly #list = new BlockList();
  readonly #size: number;

  /** @throws RangeError naming the first malformed entry (config validation reports them all first). */
  constructor(list: readonly string[]) {
    for (const entry of list) {
      const range = parseCidr(entry);
      if (!range) throw new RangeError(`not an address or CIDR range: ${entry}`);
      this.#list.addSubnet(addressText(range.version, range.bytes), range.prefix, family(range.version));
    }
    this.#size = list.length;
  }

  get size(): number {
    return this.#size;
  }

  matches(ip: IpAddress): boolean {
    return this.#list.check(ip.text, family(ip.version));
  }
}
