import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../../src/runtime/lifecycle.js';

describe('Lifecycle', () => {
  it('starts parts as they are added and stops them last first, each awaited before the next', async () => {
    const life = new Lifecycle();
    const events: string[] = [];
    const a = await life.start(
      () => {
        events.push('start a');
        return 'A';
      },
      async (part) => {
        await Promise.resolve();
        events.push(`stop ${part}`);
      },
    );
    life.onStop(() => events.push('stop b'));
    await life.start(
      async () => events.push('start c'),
      () => events.push('stop c'),
    );
    expect(a).toBe('A');
    expect(events).toEqual(['start a', 'start c']);
    await life.stop();
    expect(events).toEqual(['start a', 'start c', 'stop c', 'stop b', 'stop A']);
  });

  it('stops every part when one fails, then throws the first failure', async () => {
    const life = new Lifecycle();
    const stopped: string[] = [];
    life.onStop(() => stopped.push('first'));
    life.onStop(() => {
      throw new Error('second failed');
    });
    life.onStop(() => Promise.reject(new Error('third failed')));
    await expect(life.stop()).rejects.toThrow('third failed');
    expect(stopped).toEqual(['first']);
  });

  it('stops each part once', async () => {
    const life = new Lifecycle();
    let stops = 0;
    life.onStop(() => stops++);
    await life.stop();
    await life.stop();
    expect(stops).toBe(1);
  });
});
