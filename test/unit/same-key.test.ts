import { describe, expect, it } from 'vitest';
import { sameKey } from '../../src/auth/verified-keys.js';

describe('sameKey', () => {
  const key = 'pw_live_4f1c9a0e7b2d48c6a5e3f9d1b7c0a2e8';
  it('accepts the same key and refuses any other', () => {
    expect(sameKey(key, `${key}`)).toBe(true);
    expect(sameKey(key, `x${key.slice(1)}`)).toBe(false);
    expect(sameKey(key, `${key.slice(0, -1)}9`)).toBe(false);
    expect(sameKey(key, key.slice(0, -1))).toBe(false);
    expect(sameKey(key, `${key}0`)).toBe(false);
    expect(sameKey(key, '')).toBe(false);
    expect(sameKey('é', 'e')).toBe(false);
  });
});
