/**
 * The IP database reduced to what the service reads of it: per address range, a country and a
 * first-level subdivision name. DB-IP's city files hold about 6 million IPv4 and 8 million IPv6
 * networks with cities, postcodes and coordinates (130 MB read at every start); merged into runs
 * of one (country, subdivision), they are about 2 million ranges per family, 35 MB.
 *
 * IPv6 ranges are keyed by their /64 prefix: only a few thousand start inside a /64, and those
 * prefixes point (SPLIT) to a second table keyed by whole addresses.
 */
import type { IpAddress } from './ip.js';
import type { RangeTable } from './range-table.js';

/** Where a public address is: its country and, when the database knows it, its subdivision's name. */
export interface Location {
  country: string;
  subdivisionName?: string;
}

/** The one frozen Location of `country` and its subdivision's name ('' for none). */
export function place(country: string, subdivisionName: string): Location {
  return Object.freeze(subdivisionName === '' ? { country } : { country, subdivisionName });
}

/** The value of ranges the database places nowhere. */
export const NOWHERE = 0;
/** The value of a /64 whose ranges are in the whole-address table. */
export const SPLIT = 0xffff;

/** 4 address bytes as one word, or 16 as four, most significant first. */
function words(bytes: Uint8Array, out: Uint32Array): Uint32Array {
  for (let i = 0; i < out.length; i++)
    out[i] = ((bytes[i * 4]! << 24) | (bytes[i * 4 + 1]! << 16) | (bytes[i * 4 + 2]! << 8) | bytes[i * 4 + 3]!) >>> 0;
  return out;
}

export class LocationTable {
  /** Scratch keys: lookups are synchronous, so one of each serves every call. */
  readonly #v4Key = new Uint32Array(1);
  readonly #v6Key = new Uint32Array(4);

  constructor(
    /** Indexed by range value; NOWHERE's entry is undefined. */
    readonly places: ReadonlyArray<Location | undefined>,
    readonly v4: RangeTable,
    /** Keyed by /64 prefix (two words). */
    readonly v6: RangeTable,
    /** The SPLIT /64s' ranges, keyed by whole address (four words). */
    readonly v6Split: RangeTable,
    /** When the source database was built. */
    readonly builtAt: Date,
  ) {
    if (v4.words !== 1 || v6.words !== 2 || v6Split.words !== 4) throw new Error('location table: wrong key widths');
    if (places.length >= SPLIT) throw new Error(`location table: ${places.length} places, at most ${SPLIT - 1}`);
  }

  /** The country (and subdivision name) of `ip`, or undefined when the database has no entry. */
  locate(ip: IpAddress): Location | undefined {
    let value: number | undefined;
    if (ip.version === 4) value = this.v4.valueAt(words(ip.bytes, this.#v4Key));
    else {
      const key = words(ip.bytes, this.#v6Key);
      value = this.v6.valueAt(key);
      if (value === SPLIT) value = this.v6Split.valueAt(key);
    }
    return value === undefined ? undefined : this.places[value];
  }
}
