/**
 * Writes small MaxMind DB (.mmdb) files for tests, from the format's public specification: a binary
 * search tree of `node_count` nodes (two records of 24, 28 or 32 bits), 16 zero bytes, the data
 * section, then the metadata map after "\xAB\xCD\xEFMaxMind.com". Enough of the data types for the
 * DB-IP city records the service reads (maps, strings, unsigned integers, arrays).
 */

type Value = string | number | bigint | Value[] | { [key: string]: Value };

/** A control byte (and extended type byte) with its size field, per the format. */
function control(type: number, size: number): number[] {
  const head = type <= 7 ? [type << 5] : [0, type - 7];
  const sized = (extra: number[], code: number) => {
    head[0]! |= code;
    return [head[0]!, ...head.slice(1), ...extra];
  };
  if (size < 29) return sized([], size);
  if (size < 285) return sized([size - 29], 29);
  if (size < 65_821) return sized([(size - 285) >> 8, (size - 285) & 0xff], 30);
  const s = size - 65_821;
  return sized([s >> 16, (s >> 8) & 0xff, s & 0xff], 31);
}

function bigEndian(n: bigint): number[] {
  const out: number[] = [];
  for (let v = n; v > 0n; v >>= 8n) out.unshift(Number(v & 0xffn));
  return out;
}

/** One value in the data section's encoding. */
export function encodeValue(v: Value): number[] {
  if (typeof v === 'string') {
    const bytes = [...Buffer.from(v, 'utf8')];
    return [...control(2, bytes.length), ...bytes];
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    const bytes = bigEndian(BigInt(v));
    const type = typeof v === 'bigint' ? 9 : bytes.length <= 2 ? 5 : 6;
    return [...control(type, bytes.length), ...bytes];
  }
  if (Array.isArray(v)) return [...control(11, v.length), ...v.flatMap(encodeValue)];
  const entries = Object.entries(v);
  return [...control(7, entries.length), ...entries.flatMap(([k, x]) => [...encodeValue(k), ...encodeValue(x)])];
}

interface TrieNode {
  children: [TrieNode | number | undefined, TrieNode | number | undefined];
}

/**
 * An .mmdb file mapping each network (`bits` of its prefix as a string of 0s and 1s) to its record;
 * addresses under no network have no data. Networks must not nest.
 */
export function writeMmdb(
  networks: ReadonlyArray<{ prefix: string; record: { [key: string]: Value } }>,
  opts: {
    ipVersion: 4 | 6;
    recordSize: 24 | 28 | 32;
    /** Unused bytes before the records, so that data pointers need a record's high bits (past 2^24). */
    padding?: number;
  },
): Buffer {
  const pad = opts.padding ?? 0;
  const data: number[] = [];
  const offsets = new Map<string, number>();
  const root: TrieNode = { children: [undefined, undefined] };
  for (const { prefix, record } of networks) {
    const key = JSON.stringify(record);
    let offset = offsets.get(key);
    if (offset === undefined) {
      offset = data.length;
      offsets.set(key, offset);
      data.push(...encodeValue(record));
    }
    let node = root;
    for (let i = 0; i < prefix.length - 1; i++) {
      const side = Number(prefix[i]) as 0 | 1;
      let next = node.children[side];
      if (typeof next === 'number') throw new Error(`${prefix} nests in another network`);
      if (!next) node.children[side] = next = { children: [undefined, undefined] };
      node = next;
    }
    node.children[Number(prefix.at(-1)) as 0 | 1] = offset;
  }
  const nodes: TrieNode[] = [];
  const number = new Map<TrieNode, number>();
  const queue = [root];
  while (queue.length) {
    const n = queue.shift()!;
    number.set(n, nodes.length);
    nodes.push(n);
    for (const c of n.children) if (c && typeof c !== 'number') queue.push(c);
  }
  const count = nodes.length;
  const value = (c: TrieNode | number | undefined) =>
    c === undefined ? count : typeof c === 'number' ? count + 16 + pad + c : number.get(c)!;
  const size = opts.recordSize / 4; // bytes per node
  const tree = Buffer.alloc(count * size);
  nodes.forEach((n, i) => {
    const [l, r] = n.children.map(value) as [number, number];
    const at = i * size;
    if (opts.recordSize === 24) {
      tree.writeUIntBE(l, at, 3);
      tree.writeUIntBE(r, at + 3, 3);
    } else if (opts.recordSize === 28) {
      tree.writeUIntBE(l & 0xffffff, at, 3);
      tree[at + 3] = ((l >>> 24) << 4) | (r >>> 24);
      tree.writeUIntBE(r & 0xffffff, at + 4, 3);
    } else {
      tree.writeUInt32BE(l, at);
      tree.writeUInt32BE(r, at + 4);
    }
  });
  const metadata = encodeValue({
    node_count: count,
    record_size: opts.recordSize,
    ip_version: opts.ipVersion,
    database_type: 'test',
    languages: [],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: 1_780_000_000n,
    description: {},
  });
  return Buffer.concat([
    tree,
    Buffer.alloc(16),
    // Nothing points here: a string of `pad` bytes would do, zeros are cheaper and never read.
    Buffer.alloc(pad),
    Buffer.from(data),
    Buffer.from([0xab, 0xcd, 0xef]),
    Buffer.from('MaxMind.com'),
    Buffer.from(metadata),
  ]);
}
