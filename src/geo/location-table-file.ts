/**
 * The LocationTable as one file: a magic line, a JSON header (the places, table sizes, the source
 * database's build time), then the tables' typed arrays as they lie in memory, 32-bit words first
 * so every array starts aligned. Reading maps the arrays onto the file's bytes without a copy.
 */
import { endianness } from 'node:os';
import { type Location, LocationTable, place } from './location-table.js';
import { RangeTable } from './range-table.js';

/** Bump with any change to the file or to what the build puts in it: the cache is kept per format. */
export const TABLE_FORMAT = 1;
const MAGIC = Buffer.from(`predictwire-geo ${TABLE_FORMAT}\n`);

interface Header {
  builtAt: string;
  endianness: string;
  /** [country, subdivision name or ''] per place after NOWHERE. */
  places: Array<[string, string]>;
  sizes: { v4: number; v6: number; v6Split: number };
}

const tablesOf = (t: LocationTable) => [t.v4, t.v6, t.v6Split] as const;

/** The file's bytes for `table`. */
export function encodeLocationTable(table: LocationTable): Buffer {
  const header: Header = {
    builtAt: table.builtAt.toISOString(),
    endianness: endianness(),
    places: table.places.slice(1).map((p) => [p!.country, p!.subdivisionName ?? '']),
    sizes: { v4: table.v4.size, v6: table.v6.size, v6Split: table.v6Split.size },
  };
  const json = Buffer.from(JSON.stringify(header));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const head = Buffer.concat([MAGIC, length, json]);
  const padding = Buffer.alloc((4 - (head.length % 4)) % 4);
  const bytes = (a: Uint32Array | Uint16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  const tables = tablesOf(table);
  return Buffer.concat([head, padding, ...tables.map((t) => bytes(t.starts)), ...tables.map((t) => bytes(t.values))]);
}

/**
 * The header at the start of `file` and where the arrays begin after it; throws for anything that
 * is not a table of this format and byte order, or is too short to hold its header.
 */
function readHeader(file: Buffer): { header: Header; dataStart: number } {
  if (!file.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a location table');
  const jsonStart = MAGIC.length + 4;
  const jsonEnd = jsonStart + file.readUInt32LE(MAGIC.length);
  if (file.length < jsonEnd) throw new Error('location table: header cut short');
  const header = JSON.parse(file.subarray(jsonStart, jsonEnd).toString('utf8')) as Header;
  if (header.endianness !== endianness()) throw new Error(`location table written ${header.endianness}`);
  return { header, dataStart: Math.ceil(jsonEnd / 4) * 4 };
}

/**
 * The length a table file whose first bytes are `head` has when whole: undefined for anything else
 * or when `head` is too short to tell (the magic line, the header's length and the header itself).
 */
export function tableFileLength(head: Buffer): number | undefined {
  try {
    const { header, dataStart } = readHeader(head);
    const { v4, v6, v6Split } = header.sizes;
    // Starts as 32-bit words (1, 2 and 4 a range), then values as 16-bit ones.
    return dataStart + (v4 + 2 * v6 + 4 * v6Split) * 4 + (v4 + v6 + v6Split) * 2;
  } catch {
    return undefined;
  }
}

/** The table in `file` (from encodeLocationTable); throws on anything else, truncated or from another byte order. */
export function decodeLocationTable(file: Buffer): LocationTable {
  const { header, dataStart } = readHeader(file);
  // Typed arrays need 4-byte aligned offsets into their buffer: copy a file that does not start aligned.
  const bytes = file.byteOffset % 4 === 0 ? file : Buffer.from(new Uint8Array(file).buffer);
  let at = bytes.byteOffset + dataStart;
  const { v4, v6, v6Split } = header.sizes;
  const words = [
    [1, v4],
    [2, v6],
    [4, v6Split],
  ] as const;
  const starts = words.map(([w, n]) => {
    const a = new Uint32Array(bytes.buffer, at, w * n);
    at += a.byteLength;
    return a;
  });
  const values = words.map(([, n]) => {
    const a = new Uint16Array(bytes.buffer, at, n);
    at += a.byteLength;
    return a;
  });
  if (at !== bytes.byteOffset + bytes.length) throw new Error('location table: wrong length');
  const [t4, t6, tSplit] = words.map(([w], i) => new RangeTable(w, starts[i]!, values[i]!)) as [
    RangeTable,
    RangeTable,
    RangeTable,
  ];
  const places: Array<Location | undefined> = [
    undefined,
    ...header.places.map(([country, name]) => place(country, name)),
  ];
  return new LocationTable(places, t4, t6, tSplit, new Date(header.builtAt));
}
