/**
 * `predictwire_redis_up` and `predictwire_redis_breaker_open`: whether this API process can use
 * Redis on the request path right now, and whether the breaker around it is open;
 * `predictwire_redis_eviction_unsafe`: whether Redis may evict our data (every process).
 */
import type { Redis } from 'ioredis';
import { Gauge } from 'prom-client';
import type { EvictionPolicy } from '../store/eviction-policy.js';
import { breakerOpen, type RedisBreaker } from '../store/redis-breaker.js';

let policy: EvictionPolicy | undefined;

new Gauge({
  name: 'predictwire_redis_eviction_unsafe',
  help: "1 when Redis's maxmemory-policy (the label) is not noeviction, so a full Redis may evict snapshots, schedules, advertiser records or counts; else 0",
  labelNames: ['policy'],
  aggregator: 'max',
  collect() {
    this.reset();
    if (policy?.policy !== undefined) this.set({ policy: policy.policy }, policy.unsafe ? 1 : 0);
  },
});

/** Reports `watch` on /metrics. */
export function exposeEvictionPolicy(watch: EvictionPolicy): void {
  policy = watch;
}

/** 1 while the request-path connection is ready and its breaker closed, else 0; the breaker's state beside it (read at scrape time). */
export function exposeRedisUp(redis: Redis, breaker: RedisBreaker): void {
  new Gauge({
    name: 'predictwire_redis_up',
    help: '1 while this API process reaches Redis on the request path (connected, breaker closed), else 0: fallbacks answer.',
    // Over API workers: 1 only while every one of them does.
    aggregator: 'min',
    collect() {
      this.set(redis.status === 'ready' && !breakerOpen(breaker) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'predictwire_redis_breaker_open',
    help: '1 while the breaker around request-path Redis commands is open (three failed in a row: errors or timeouts), else 0.',
    // Over API workers: 1 while any of them has it open.
    aggregator: 'max',
    collect() {
      this.set(breakerOpen(breaker) ? 1 : 0);
    },
  });
}
