/** Click counters in Redis, per operator and UTC day, so they survive restarts. */
import type { Redis } from 'ioredis';
import type { ClickTarget } from './click-links.js';

export const clicksKey = (operatorId: string, day: string) => `pw:clicks:${operatorId}:${day}`;

/** Counts one click on `target`'s operator, broken down by widget class. */
export async function recordClick(redis: Redis, target: ClickTarget, now: Date): Promise<void> {
  const key = clicksKey(target.operatorId, now.toISOString().slice(0, 10));
  await redis.multi().hincrby(key, 'total', 1).hincrby(key, `widget:${target.widget}`, 1).expire(key, 90 * 86_400).exec();
}
