/** `npm run bench` options: flags, or BENCH_* environment variables (flags win). */
import { parseArgs } from 'node:util';

export const PARTS = ['rest', 'mixed', 'cores', 'fanout', 'feed', 'edge'] as const;
export type Part = (typeof PARTS)[number];

export interface BenchOptions {
  parts: Part[];
  /** wrk seconds per round per server. */
  seconds: number;
  /** Alternations baseline → predictwire per REST case. */
  rounds: number;
  connections: number;
  /** Only REST cases whose name contains this. */
  filter?: string;
  /** Leading-edge fan-out: subscriber counts. */
  subscribers: number[];
  /** Leading-edge ticks measured per phase (after warm-up ticks). */
  ticks: number;
  /** Client processes the WebSocket subscribers are spread over. */
  clientProcs: number;
  feedSubscribers: number;
  feedSeconds: number;
}

export const DEFAULTS: BenchOptions = {
  parts: [...PARTS],
  seconds: 2,
  rounds: 3,
  connections: 64,
  subscribers: [1_000, 10_000],
  ticks: 30,
  clientProcs: 4,
  feedSubscribers: 1_000,
  feedSeconds: 15,
};

const FLAGS = {
  only: { type: 'string' },
  seconds: { type: 'string' },
  rounds: { type: 'string' },
  connections: { type: 'string' },
  filter: { type: 'string' },
  subscribers: { type: 'string' },
  ticks: { type: 'string' },
  'client-procs': { type: 'string' },
  'feed-subscribers': { type: 'string' },
  'feed-seconds': { type: 'string' },
  help: { type: 'boolean' },
} as const;

export const USAGE = `npm run bench [-- options]     (each also as BENCH_<NAME>, e.g. BENCH_ONLY=rest)
  --only rest,mixed,cores,fanout,feed,edge   parts to run (default all; "live" = fanout,feed)
  --seconds N          wrk seconds per round per server (default ${DEFAULTS.seconds})
  --rounds N           baseline/predictwire alternations per REST case (default ${DEFAULTS.rounds})
  --connections N      wrk connections (default ${DEFAULTS.connections})
  --filter TEXT        only REST cases whose name contains TEXT
  --subscribers A,B    leading-edge fan-out subscriber counts (default ${DEFAULTS.subscribers.join(',')})
  --ticks N            leading-edge ticks measured per phase (default ${DEFAULTS.ticks})
  --client-procs N     processes the WebSocket clients are spread over (default ${DEFAULTS.clientProcs})
  --feed-subscribers N subscribers under the running simulator feed (default ${DEFAULTS.feedSubscribers})
  --feed-seconds N     seconds measured under the simulator feed (default ${DEFAULTS.feedSeconds})`;

function positive(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${raw}"`);
  return n;
}

/** Parses flags and BENCH_* variables; throws with a readable message on a bad value. */
export function parseOptions(argv: string[], env: Record<string, string | undefined> = {}): BenchOptions | 'help' {
  const { values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  if (values.help) return 'help';
  const get = (name: keyof typeof FLAGS) => {
    const v = values[name];
    return typeof v === 'string' ? v : env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  };
  const o: BenchOptions = { ...DEFAULTS, subscribers: [...DEFAULTS.subscribers], parts: [...DEFAULTS.parts] };
  const only = get('only');
  if (only) {
    const parts = only.split(',').flatMap((p) => (p.trim() === 'live' ? ['fanout', 'feed'] : [p.trim()]));
    for (const p of parts)
      if (!(PARTS as readonly string[]).includes(p))
        throw new Error(`--only: unknown part "${p}" (${PARTS.join(', ')}, live)`);
    o.parts = PARTS.filter((p) => parts.includes(p));
  }
  const num = (name: keyof typeof FLAGS, set: (n: number) => void) => {
    const v = get(name);
    if (v !== undefined) set(positive(name, v));
  };
  num('seconds', (n) => (o.seconds = n));
  num('rounds', (n) => (o.rounds = n));
  num('connections', (n) => (o.connections = n));
  num('ticks', (n) => (o.ticks = n));
  num('client-procs', (n) => (o.clientProcs = n));
  num('feed-subscribers', (n) => (o.feedSubscribers = n));
  num('feed-seconds', (n) => (o.feedSeconds = n));
  const subs = get('subscribers');
  if (subs !== undefined) o.subscribers = subs.split(',').map((s) => positive('subscribers', s.trim()));
  const filter = get('filter');
  if (filter) o.filter = filter;
  return o;
}
