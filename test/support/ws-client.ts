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
