/**
 * Address ranges: `TRUST_PROXY` entries and the reserved ranges. An entry is an address (a
 * single-host range) or `address/prefix`; IPv4-mapped IPv6 ranges are turned into IPv4 ranges.
 */
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

/** Whether `ip` falls in `range`. */
export function cidrContains(range: Cidr, ip: IpAddress): boolean {
  if (range.version !== ip.version) return false;
  const full = Math.floor(range.prefix / 8);
  for (let i = 0; i < full; i++) if (range.bytes[i] !== ip.bytes[i]) return false;
  const rest = range.prefix % 8;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return ((range.bytes[full]! ^ ip.bytes[full]!) & mask) === 0;
}

/** The entries of `list` that are not an address or CIDR range. */
export function invalidRanges(list: readonly string[]): string[] {
  return list.filter((entry) => parseCidr(entry) === undefined);
}

/** A set of ranges to test addresses against. */
export class AddressMatcher {
  readonly #ranges: Cidr[];

  /** @throws RangeError naming the first malformed entry (config validation reports them all first). */
  constructor(list: readonly string[]) {
    this.#ranges = list.map((entry) => {
      const range = parseCidr(entry);
      if (!range) throw new RangeError(`not an address or CIDR range: ${entry}`);
      return range;
    });
  }

  get size(): number {
    return this.#ranges.length;
  }

  matches(ip: IpAddress): boolean {
    return this.#ranges.some((r) => cidrContains(r, ip));
  }
}
