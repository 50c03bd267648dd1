/** A private redis-server per test file: real Redis, never a mock, never shared between files. */
import { afterAll, beforeAll } from 'vitest';
import { Redis } from 'ioredis';
import { startPrivateRedis, type PrivateRedis } from '../../src/runtime/private-redis.js';

export interface RedisFixture {
  url: string;
  /** A command connection for the test itself. */
  client: Redis;
}

/** Starts redis-server before the file's tests and stops it after. */
export function useRedis(): RedisFixture {
  const fixture = {} as RedisFixture & { server?: PrivateRedis };
  beforeAll(async () => {
    fixture.server = await startPrivateRedis();
    fixture.url = fixture.server.url;
    fixture.client = new Redis(fixture.url);
  });
  afterAll(async () => {
    fixture.client?.disconnect();
    await fixture.server?.stop();
  });
  return fixture;
}
