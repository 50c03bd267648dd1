/**
 * A real Redis Sentinel setup for failover tests: one primary, one replica and three sentinels, each
 * a private process on a loopback port, with short failure detection so a failover takes seconds.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/runtime/free-port.js';
import { stopChild } from '../../src/runtime/stop-child.js';

export const MASTER_NAME = 'pw-test';
/** How long a primary may be silent before a sentinel calls it down. */
export const DOWN_AFTER_MS = 1_000;

export interface SentinelOptions {
  master: string;
  /** Where the primary is at first (an address, or a name with `hostnames`). */
  host: string;
  port: number;
  downAfterMs: number;
  /** The primary's and replicas' password (`requirepass`), if they have one. */
  password?: string;
  /** Hosts given by name (compose's service names) rather than addresses. */
  hostnames?: boolean;
}

/**
 * The sentinel directives of a failover setup: the test cluster below and the compose file's
 * `sentinel` profile use the same (test/unit/deploy-config.test.ts checks the compose file).
 */
export function sentinelDirectives(o: SentinelOptions): string[] {
  return [
    // Names must resolve before `monitor` reads one.
    ...(o.hostnames ? ['sentinel resolve-hostnames yes', 'sentinel announce-hostnames yes'] : []),
    `sentinel monitor ${o.master} ${o.host} ${o.port} 2`,
    ...(o.password ? [`sentinel auth-pass ${o.master} ${o.password}`] : []),
    `sentinel down-after-milliseconds ${o.master} ${o.downAfterMs}`,
    `sentinel failover-timeout ${o.master} 10000`,
    `sentinel parallel-syncs ${o.master} 1`,
  ];
}

export interface SentinelCluster {
  /** `host:port,...` for REDIS_SENTINELS. */
  sentinelList: string;
  primaryPort: number;
  replicaPort: number;
  /** SIGKILL of the primary: no goodbye to replicas or clients, as when a machine dies. */
  killPrimary(): void;
  /** The primary's port as the sentinels report it now (a frozen sentinel is skipped). */
  currentPrimaryPort(): Promise<number | undefined>;
  /** SIGSTOP of sentinel `i` (0-2, in `sentinelList`'s order): it takes connections and answers nothing. Returns the SIGCONT. */
  freezeSentinel(i: number): () => void;
  stop(): Promise<void>;
}

/** True when both binaries are on PATH (.ci/run installs redis-sentinel when missing). */
function sentinelAvailable(): boolean {
  return ['redis-server', 'redis-sentinel'].every((bin) => {
    const r = spawnSync(bin, ['--version'], { stdio: 'ignore' });
    return !r.error && r.status === 0;
  });
}

async function waitPing(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
    });
    client.on('error', () => {}); // a refused connection is the expected answer while it starts
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`nothing answers on ${port}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      client.disconnect();
    }
  }
}

/** Starts the primary, the replica (synced) and three sentinels that all see both. */
export async function startSentinelCluster(): Promise<SentinelCluster> {
  if (!sentinelAvailable())
    throw new Error('redis-server and redis-sentinel are needed (Debian: apt-get install redis-server redis-sentinel)');
  const dir = mkdtempSync(join(tmpdir(), 'pw-sentinel-'));
  const children: ChildProcess[] = [];
  const common = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning', '--dir', dir];
  const start = (bin: string, args: string[]) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(child);
    return child;
  };

  const primaryPort = await freePort();
  const primary = start('redis-server', ['--port', String(primaryPort), ...common]);
  await waitPing(primaryPort);
  const replicaPort = await freePort();
  start('redis-server', ['--port', String(replicaPort), ...common, '--replicaof', '127.0.0.1', String(primaryPort)]);
  await waitPing(replicaPort);
  const replica = new Redis(replicaPort, '127.0.0.1');
  try {
    // The replica must be in sync before anything depends on it taking over.
    for (let i = 0; !(await replica.info('replication')).includes('master_link_status:up'); i++) {
      if (i > 200) throw new Error('replica never synced');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    replica.disconnect();
  }

  const sentinelPorts: number[] = [];
  const sentinels: ChildProcess[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    // Sentinel rewrites its config file as it learns the topology: one writable file each.
    const conf = join(dir, `sentinel-${i}.conf`);
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        ...sentinelDirectives({
          master: MASTER_NAME,
          host: '127.0.0.1',
          port: primaryPort,
          downAfterMs: DOWN_AFTER_MS,
        }),
        '',
      ].join('\n'),
    );
    sentinels.push(start('redis-sentinel', [conf, '--loglevel', 'warning']));
    sentinelPorts.push(port);
  }
  await Promise.all(sentinelPorts.map((p) => waitPing(p)));
  // A failover needs each sentinel to know the replica and its peers (learnt via the primary).
  for (const port of sentinelPorts) {
    const s = new Redis(port, '127.0.0.1');
    try {
      for (let i = 0; ; i++) {
        const peers = (await s.call('SENTINEL', 'sentinels', MASTER_NAME)) as unknown[];
        const replicas = (await s.call('SENTINEL', 'replicas', MASTER_NAME)) as unknown[];
        if (peers.length >= 2 && replicas.length >= 1) break;
        if (i > 300) throw new Error(`sentinel ${port} never saw its peers and the replica`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      s.disconnect();
    }
  }

  const askSentinel = async (): Promise<number | undefined> => {
    for (const port of sentinelPorts) {
      const s = new Redis(port, '127.0.0.1', {
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
        commandTimeout: 1_000,
      });
      s.on('error', () => {}); // a dead sentinel: ask the next one
      try {
        await s.connect();
        const addr = (await s.call('SENTINEL', 'get-master-addr-by-name', MASTER_NAME)) as [string, string] | null;
        if (addr) return Number(addr[1]);
      } catch {
        // try the next sentinel
      } finally {
        s.disconnect();
      }
    }
    return undefined;
  };

  return {
    sentinelList: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    primaryPort,
    replicaPort,
    killPrimary: () => void primary.kill('SIGKILL'),
    currentPrimaryPort: askSentinel,
    freezeSentinel(i) {
      const sentinel = sentinels[i]!;
      sentinel.kill('SIGSTOP');
      return () => void sentinel.kill('SIGCONT');
    },
    async stop() {
      await Promise.all(children.map((c) => stopChild(c, 5_000)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
