/**
 * One process of WebSocket subscribers for bench/fanout.ts, driven over IPC. Each client notes when
 * (process.hrtime, CLOCK_MONOTONIC: comparable across processes on one machine) it first receives a
 * frame carrying a new spot price; the parent matches those to the ticks it published.
 */
import WebSocket from 'ws';
import type { ClientReply, ClientRequest } from './lib/client-pool.js';

const SPOT = Buffer.from('"spot_price":"');
const BATCH = 100;
/**
 * The loopback addresses this process's sockets come from, in turn: 127.0.<process + 1>.1-250.
 * A client socket binds its address before it connects, so each address has its own range of
 * ephemeral ports (about 28,000 here): from one address, 28,000 sockets to the server would be
 * the most the bench could open, whatever the server takes.
 */
const PROCESS_INDEX = Number(process.argv[2] ?? 0);
const ADDRESSES = 250;
let opened = 0;
const nextLocalAddress = () => `127.0.${PROCESS_INDEX + 1}.${(opened++ % ADDRESSES) + 1}`;

interface Client {
  ws: WebSocket;
  /** The spot price of the last frame, so a frame counts only when the price changed. */
  last: string | undefined;
}

let clients: Client[] = [];
let arrivals = new Map<string, number[]>();
let closedEarly = 0;

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The spot price a frame carries, as shown ("$3,401.37"). */
function priceOf(data: Buffer): string | undefined {
  const at = data.indexOf(SPOT);
  if (at < 0) return undefined;
  const start = at + SPOT.length;
  const end = data.indexOf(0x22, start);
  return end < 0 ? undefined : data.toString('latin1', start, end);
}

function open(url: string, topic: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: nextLocalAddress() });
    const c: Client = { ws, last: undefined };
    let subscribed = false;
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
    ws.once('open', () => ws.send(JSON.stringify({ op: 'subscribe', topic })));
    ws.once('close', () => {
      if (subscribed && clients.includes(c)) closedEarly++;
    });
    ws.on('message', (data: Buffer) => {
      const at = nowUs();
      const price = priceOf(data);
      if (price !== undefined && price !== c.last) {
        c.last = price;
        const list = arrivals.get(price);
        if (list) list.push(at);
        else arrivals.set(price, [at]);
      }
      if (!subscribed) {
        subscribed = true;
        resolve(c);
      }
    });
  });
}

async function handle(req: ClientRequest): Promise<Omit<ClientReply, 'id'>> {
  switch (req.op) {
    case 'connect':
      for (let i = 0; i < req.count; i += BATCH) {
        clients.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(BATCH, req.count - i) }, () => open(req.url, req.topic)),
          )),
        );
      }
      return { connected: clients.length };
    case 'count':
      return { count: arrivals.get(req.price)?.length ?? 0 };
    case 'reset':
      arrivals = new Map();
      closedEarly = 0;
      return {};
    case 'collect':
      return { arrivals: [...arrivals], closedEarly };
    case 'close': {
      const all = clients;
      clients = [];
      await Promise.all(
        all.map(
          (c) =>
            new Promise<void>((done) => {
              if (c.ws.readyState === WebSocket.CLOSED) return done();
              c.ws.once('close', () => done());
              c.ws.terminate();
            }),
        ),
      );
      return {};
    }
  }
}

process.on('message', (req: ClientRequest) => {
  handle(req).then(
    (reply) => process.send!({ id: req.id, ...reply }),
    (err: unknown) => process.send!({ id: req.id, error: String((err as Error)?.message ?? err) }),
  );
});
process.on('disconnect', () => process.exit(0));
