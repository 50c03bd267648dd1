/**
 * How the WebSocket hub acts on its ledger's answers, on a real uWS app over real sockets: a slot
 * granted at once upgrades at once; one that has to wait upgrades when granted and is refused with
 * 429 when not; and one granted at once but lost afterwards (another API worker took the last slot)
 * closes the new connection with 1013 and is never released.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { App, us_listen_socket_close, us_socket_local_port, type us_listen_socket } from 'uWebSockets.js';
import WebSocket from 'ws';
import { openWebSocket } from '../support/ws-client.js';
import { createLogger } from '../../src/runtime/log.js';
import type { ConnectionLedger } from '../../src/transport/ws/connection-ledger.js';
import { DEFAULT_WS_OPTIONS, registerWebSocket, type WsHub } from '../../src/transport/ws-server.js';

const log = createLogger('silent', 'test');
let listening: us_listen_socket | undefined;

afterEach(() => {
  if (listening) us_listen_socket_close(listening);
  listening = undefined;
});

/** A hub on a fresh uWS app whose ledger answers `reserve` with `answer`; resolves with its port. */
async function hub(reserve: ConnectionLedger['reserve'], released: string[]): Promise<{ port: number; hub: WsHub }> {
  const app = App();
  const h = registerWebSocket(
    app,
    () => undefined,
    () => 'JP',
    log,
    DEFAULT_WS_OPTIONS,
    {
      addressOf: (remote) => remote,
      blocked: () => undefined,
      charge: () => {},
      ledger: { reserve, release: (address) => released.push(address) },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) => {
      if (!socket) return reject(new Error('could not listen'));
      listening = socket;
      resolve(us_socket_local_port(socket));
    }),
  );
  return { port, hub: h };
}

/** Connects; resolves with the open socket or the refusal's status. */
const connect = (port: number) => openWebSocket(`ws://127.0.0.1:${port}/v1/ws`);

const closed = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

describe('WebSocket admission by the ledger', () => {
  it('upgrades at once on a slot granted at once, and releases it on close', async () => {
    const released: string[] = [];
    const { port, hub: h } = await hub(() => true, released);
    const ws = await connect(port);
    expect(ws).toBeInstanceOf(WebSocket);
    expect(h.connections()).toBe(1);
    (ws as WebSocket).close();
    await expect.poll(() => released).toEqual(['127.0.0.1']);
    expect(h.connections()).toBe(0);
  });

  it('waits for a slot that has to be asked for: upgrades when granted, 429 when not', async () => {
    const released: string[] = [];
    let grant = true;
    const { port } = await hub(() => new Promise((r) => setTimeout(() => r(grant), 30)), released);
    const ws = await connect(port);
    expect(ws).toBeInstanceOf(WebSocket);
    (ws as WebSocket).close();
    await expect.poll(() => released.length).toBe(1);
    grant = false;
    expect(await connect(port)).toBe(429);
    expect(released).toHaveLength(1);
  });

  it('closes with 1013 a connection whose slot, granted at once, is lost afterwards, and never releases it', async () => {
    const released: string[] = [];
    const { port, hub: h } = await hub((_address, _max, lost) => {
      setTimeout(lost, 50);
      return true;
    }, released);
    const ws = (await connect(port)) as WebSocket;
    expect(ws).toBeInstanceOf(WebSocket);
    expect(await closed(ws)).toBe(1013);
    await expect.poll(() => h.connections()).toBe(0);
    expect(released).toEqual([]);
  });
});
