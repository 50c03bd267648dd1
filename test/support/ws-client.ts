/** A WebSocket client for the tests: opened, or refused with the upgrade's status. */
import WebSocket from 'ws';

/**
 * Opens a WebSocket to `url`; resolves with the open socket, or with the status of a refused
 * upgrade. Errors after the open are ignored (a test may kill the server under it on purpose).
 */
export function openWebSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.on('error', () => {});
      resolve(ws);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
      ws.terminate();
    });
    ws.once('error', (err) => reject(new Error(`WebSocket upgrade: ${err.message}`)));
  });
}

/** A refused upgrade as the client saw it. */
export interface RefusedUpgrade {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Attempts an upgrade that should be refused; rejects if it opens. */
export function refusedUpgrade(url: string, headers: Record<string, string> = {}): Promise<RefusedUpgrade> {
  const ws = new WebSocket(url, { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    ws.once('error', reject);
  });
}
