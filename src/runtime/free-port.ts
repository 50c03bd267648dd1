/** The free-port lookup every process that starts children on loopback uses (the cluster primary, tests). */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { LRUCache } from 'lru-cache';

/** How many ports below the ephemeral range are tried, at random, before asking the kernel for one. */
const TRIES = 20;
/** The span below the ephemeral range the tries are drawn from. */
const SPAN = 10_000;
/**
 * The span is cut in lanes and a process draws from the lane of its pid: a port probed free here
 * can be taken by another process's child before the child given it here listens, and processes
 * that look up ports at the same time (the suite's test files, started one pid after another) then
 * never draw the same ones. Seen in the suite: a port probed free in one test file, and refused to
 * its admin server a millisecond later, had been given to another file's process two seconds before.
 */
const LANES = 4;
/**
 * Ports this process gave out in the last minute, not given again: the child given one may not
 * listen on it yet, and two lookups at once would otherwise both find it free.
 */
const givenOut = new LRUCache<number, true>({ max: 4_096, ttl: 60_000 });

/**
 * A free TCP port on 127.0.0.1, for a child about to listen on it. It is taken below the range the
 * kernel hands outgoing connections (Linux's `ip_local_port_range`) when that range can be read:
 * a port from that range, which is what listening on port 0 gives, can go to an outgoing connection
 * between this check and the child's own listen, and a machine that opens thousands of connections
 * (the test suite) then sees the child fail with "could not listen". Elsewhere, the kernel's choice.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low !== undefined && low > SPAN + 1024) {
    const lane = SPAN / LANES;
    const first = low - 1 - (process.pid % LANES) * lane;
    for (let i = 0; i < TRIES; i++) {
      const port = first - Math.floor(Math.random() * lane);
      if (givenOut.has(port)) continue;
      givenOut.set(port, true); // taken before the probe: a lookup running beside this one passes it over
      if (await listens(port)) return port;
      givenOut.delete(port);
    }
  }
  const port = await kernelPort();
  givenOut.set(port, true);
  return port;
}

/** The first port of the kernel's ephemeral range, or undefined where it cannot be read. */
export function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : undefined;
  } catch {
    return undefined;
  }
}

/** Listens on `port` (0: the kernel picks) and closes again; the port, or undefined if it is taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', () => resolve(undefined));
    srv.listen(port, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : undefined));
    });
  });
}

const listens = async (port: number) => (await probe(port)) === port;

async function kernelPort(): Promise<number> {
  const port = await probe(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
