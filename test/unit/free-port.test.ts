import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralLow, freePort } from '../../src/runtime/free-port.js';

const listenOn = (port: number) =>
  new Promise<() => Promise<void>>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(() => new Promise((done) => srv.close(() => done()))));
  });

describe('freePort', () => {
  it('gives a port a child can listen on, below the range the kernel hands outgoing connections', async () => {
    const low = ephemeralLow();
    expect(low, 'this machine names its ephemeral range (Linux)').toBeDefined();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeLessThan(low!);
      expect(port).toBeGreaterThanOrEqual(low! - 10_000);
    }
    const close = await listenOn(ports[0]!);
    await close();
  });

  it('gives every lookup running at once a port of its own', async () => {
    // 400 draws from the span at random would share a port all but certainly (birthday odds over
    // 10,000: 99.97 %); each must come back different, every one still free.
    const ports = await Promise.all(Array.from({ length: 400 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('never gives a port something already listens on', async () => {
    // Each port is held before the next is asked for. With 2,000 of the 10,000 held, draws of a held
    // port are all but certain (a lookup that did not check would fail here), and each is passed over.
    const closes: Array<() => Promise<void>> = [];
    for (let i = 0; i < 2_000; i++) closes.push(await listenOn(await freePort()));
    await Promise.all(closes.map((close) => close()));
  });
});
