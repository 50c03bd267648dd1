/** A full garbage collection in another Node process, through the inspector it was started with. */
import WebSocket from 'ws';

/** The `--inspect` flag that lets `collectGarbage` reach a process on `port` (loopback only). */
export const inspectFlag = (port: number) => `--inspect=127.0.0.1:${port}`;

/**
 * Runs V8's full collection twice in the process listening for the inspector on `port` (the second
 * frees what the first left to finalizers), so RSS read after it is what the process keeps, not
 * garbage a burst left in the young generation.
 */
export async function collectGarbage(port: number): Promise<void> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{
    webSocketDebuggerUrl: string;
  }>;
  if (!target) throw new Error(`no inspector target on port ${port}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise<void>((done, fail) => ws.once('open', () => done()).once('error', fail));
  let id = 0;
  const call = (method: string) =>
    new Promise<void>((done) => {
      const mine = ++id;
      const answered = (data: WebSocket.RawData) => {
        if ((JSON.parse(data.toString()) as { id?: number }).id !== mine) return;
        ws.off('message', answered);
        done();
      };
      ws.on('message', answered);
      ws.send(JSON.stringify({ id: mine, method }));
    });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
  } finally {
    ws.close();
  }
}
