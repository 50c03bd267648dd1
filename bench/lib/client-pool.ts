/** WebSocket subscribers spread over several processes (bench/fanout-clients.ts), so the load generator is not the bottleneck. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { root } from './procs.js';

export type ClientRequest =
  | { id: number; op: 'connect'; url: string; topic: string; count: number }
  | { id: number; op: 'count'; price: string }
  | { id: number; op: 'reset' | 'collect' | 'close' };

export interface ClientReply {
  id: number;
  error?: string;
  connected?: number;
  /** Clients that have received a frame with the asked price. */
  count?: number;
  /** Per shown price: when clients first received a frame with it (monotonic µs). */
  arrivals?: Array<[string, number[]]>;
  /** Clients the server closed while subscribed. */
  closedEarly?: number;
}

/** A request before it gets its id. */
type Ask = ClientRequest extends infer R ? (R extends ClientRequest ? Omit<R, 'id'> : never) : never;

export class ClientPool {
  readonly #children: ChildProcess[];
  #next = 0;
  readonly #pending = new Map<number, (r: ClientReply) => void>();

  constructor(processes: number) {
    this.#children = Array.from({ length: processes }, (_, index) => {
      // Its index picks the loopback addresses its sockets come from (fanout-clients.ts).
      const node = [process.execPath, '--import', 'tsx', resolve(root, 'bench/fanout-clients.ts'), String(index)];
      // Thousands of sockets per process: raise the soft open-file limit to the hard one.
      const child = spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"', 'sh', ...node], {
        cwd: root,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on('message', (r: ClientReply) => this.#pending.get(r.id)?.(r));
      return child;
    });
  }

  #ask(child: ChildProcess, req: Ask): Promise<ClientReply> {
    const id = ++this.#next;
    return new Promise((done, fail) => {
      this.#pending.set(id, (r) => {
        this.#pending.delete(id);
        if (r.error) fail(new Error(`client process: ${r.error}`));
        else done(r);
      });
      child.send({ ...req, id });
    });
  }

  /** Connects `count` clients in all (split evenly) and subscribes each to `topic`. */
  async connect(url: string, topic: string, count: number): Promise<void> {
    const n = this.#children.length;
    await Promise.all(
      this.#children.map((c, i) =>
        this.#ask(c, { op: 'connect', url, topic, count: Math.floor(count / n) + (i < count % n ? 1 : 0) }),
      ),
    );
  }

  /** How many clients in all have received a frame with `price`. */
  async count(price: string): Promise<number> {
    const replies = await Promise.all(this.#children.map((c) => this.#ask(c, { op: 'count', price })));
    return replies.reduce((sum, r) => sum + (r.count ?? 0), 0);
  }

  /** Forgets every arrival so far (the frames of subscribing). */
  async reset(): Promise<void> {
    await Promise.all(this.#children.map((c) => this.#ask(c, { op: 'reset' })));
  }

  /** Arrivals per price over every process, and clients the server dropped. */
  async collect(): Promise<{ arrivals: Map<string, number[]>; closedEarly: number }> {
    const replies = await Promise.all(this.#children.map((c) => this.#ask(c, { op: 'collect' })));
    const arrivals = new Map<string, number[]>();
    let closedEarly = 0;
    for (const r of replies) {
      closedEarly += r.closedEarly ?? 0;
      for (const [price, times] of r.arrivals ?? []) arrivals.set(price, [...(arrivals.get(price) ?? []), ...times]);
    }
    return { arrivals, closedEarly };
  }

  /** Closes every client (the processes stay for the next phase). */
  async close(): Promise<void> {
    await Promise.all(this.#children.map((c) => this.#ask(c, { op: 'close' })));
  }

  stop(): void {
    for (const c of this.#children) c.kill();
  }
}
