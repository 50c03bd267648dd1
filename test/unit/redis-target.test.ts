import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { targetOptions } from '../../src/store/redis.js';

describe('Redis connection options', () => {
  it('add nothing for one server', () => {
    expect(targetOptions(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6399' }).redis)).toEqual({});
  });

  it('find the primary through Sentinel, follow failovers, and resend what a demoted primary refuses', () => {
    const opts = targetOptions(
      loadConfig({ REDIS_SENTINELS: 'a:26379,b:26379', REDIS_SENTINEL_MASTER: 'pw', REDIS_SENTINEL_PASSWORD: 'sp' })
        .redis,
    );
    expect(opts).toMatchObject({
      sentinels: [
        { host: 'a', port: 26379 },
        { host: 'b', port: 26379 },
      ],
      name: 'pw',
      sentinelPassword: 'sp',
      failoverDetector: true,
    });
    // 2: reconnect and resend the command
    expect(opts.reconnectOnError?.(new Error("READONLY You can't write against a read only replica."))).toBe(2);
    expect(
      opts.reconnectOnError?.(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')),
    ).toBe(false);
  });
});
