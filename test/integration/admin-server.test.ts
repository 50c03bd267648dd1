/** The admin listener over real sockets: metrics, health, nothing else; a taken port is not fatal. */
import { createServer } from 'node:net';
import { pino } from 'pino';
import { Gauge } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { startAdminServer } from '../../src/metrics/admin-server.js';
import { freePort } from '../../src/runtime/free-port.js';

const log = pino({ level: 'silent' });

new Gauge({
  name: 'predictwire_test_admin_gauge',
  help: 'a series defined anywhere on the default registry',
  collect() {
    this.set(42);
  },
});

describe('admin server', () => {
  it('serves the default registry on /metrics and health on /healthz, 404 elsewhere', async () => {
    let healthy = true;
    const admin = (await startAdminServer('127.0.0.1', await freePort(), log, () => ({
      ok: healthy,
      running: healthy,
    })))!;
    const base = `http://127.0.0.1:${admin.port}`;
    const metrics = await fetch(`${base}/metrics`);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toMatch(/^predictwire_test_admin_gauge 42$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total /m);
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok', running: true, pid: process.pid });
    healthy = false;
    const down = await fetch(`${base}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ status: 'unhealthy', running: false, pid: process.pid });
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
    await admin.close();
  });

  it('port 0 means no listener; a taken port is skipped, not fatal', async () => {
    expect(await startAdminServer('127.0.0.1', 0, log)).toBeUndefined();
    const taken = createServer();
    const port = await freePort();
    await new Promise<void>((r) => taken.listen(port, '127.0.0.1', () => r()));
    expect(await startAdminServer('127.0.0.1', port, log)).toBeUndefined();
    taken.close();
  });
});
