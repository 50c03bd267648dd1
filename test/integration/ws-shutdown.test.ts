/**
 * Shutdown of the WebSocket hub on a real uWS app over real sockets: closeAll sends every client
 * 1001 (going away), and once it resolves the server may close at once without cutting the frames off.
 */
import { describe, expect, it } from 'vitest';
import { App, us_listen_socket_close, us_socket_local_port, type us_listen_socket } from 'uWebSockets.js';
import WebSocket from 'ws';
import { openWebSocket } from '../support/ws-client.js';
import { createLogger } from '../../src/runtime/log.js';
import { DEFAULT_WS_OPTIONS, registerWebSocket } from '../../src/transport/ws-server.js';

const log = createLogger('silent', 'test');

const closed = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );

describe('WebSocket hub shutdown', () => {
  it('sends every client 1001 before the server closes, with no wait but closeAll', async () => {
    const app = App();
    const hub = registerWebSocket(
      app,
      () => undefined,
      () => 'JP',
      log,
      DEFAULT_WS_OPTIONS,
    );
    let listening: us_listen_socket | undefined;
    const port = await new Promise<number>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (socket) => {
        if (!socket) return reject(new Error('could not listen'));
        listening = socket;
        resolve(us_socket_local_port(socket));
      }),
    );
    const clients = (await Promise.all(
      [1, 2, 3].map(() => openWebSocket(`ws://127.0.0.1:${port}/v1/ws`)),
    )) as WebSocket[];
    for (const c of clients) expect(c).toBeInstanceOf(WebSocket);
    await expect.poll(() => hub.connections()).toBe(clients.length);
    const closes = clients.map(closed);

    await hub.closeAll();
    us_listen_socket_close(listening!);
    app.close();

    for (const { code, reason } of await Promise.all(closes))
      expect({ code, reason }).toEqual({ code: 1001, reason: 'server shutting down' });
    expect(hub.connections()).toBe(0);
  });
});
