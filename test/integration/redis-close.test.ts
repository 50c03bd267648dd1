/**
 * closeRedis against real redis-servers: a ready connection quits after the replies it is owed;
 * one that cannot reach Redis (never reached, or lost with a command queued) lets go at once
 * instead of holding a process's stop until Redis returns.
 */
import { once } from 'node:events';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { startPrivateRedis } from '../../src/runtime/private-redis.js';
import { closeRedis, connectRedis, whenReady } from '../../src/store/redis.js';
import { useRedis } from '../support/redis.js';

const redis = useRedis();
const log = pino({ level: 'silent' });
const settled = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    () => 'rejected',
  );

describe('closeRedis', () => {
  it('quits a ready connection after the replies still in flight', async () => {
    const conn = connectRedis({ url: redis.url }, 'test-close', log);
    await whenReady(conn);
    const written = conn.set('pw:test:close', 'kept');
    await closeRedis(conn);
    expect(await written).toBe('OK');
    expect(await redis.client.get('pw:test:close')).toBe('kept');
  });

  it('lets go at once of a connection that never reached Redis, though a command waits in its queue', async () => {
    // The background connections' settings (offline queue on, retried without end): QUIT would
    // queue behind the GET and wait for a Redis that never comes.
    const conn = connectRedis({ url: `redis://127.0.0.1:${await freePort()}` }, 'test-close-never', log);
    const queued = settled(conn.get('pw:test:queued'));
    expect(conn.status).not.toBe('ready');
    await closeRedis(conn);
    if (conn.status !== 'end') await once(conn, 'end');
    expect(await queued).toBe('rejected');
  });

  it('lets go at once of a connection whose Redis went away, with a command queued', async () => {
    const gone = await startPrivateRedis();
    const conn = connectRedis({ url: gone.url }, 'test-close-gone', log);
    await whenReady(conn);
    const closed = once(conn, 'close');
    await gone.stop();
    await closed;
    void settled(conn.get('pw:test:queued'));
    expect(conn.status).not.toBe('ready');
    await closeRedis(conn); // with QUIT this waits for the reconnect, past the test's timeout
  });
});
