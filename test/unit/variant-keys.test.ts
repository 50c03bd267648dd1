import { describe, expect, it } from 'vitest';
import { VariantKeys } from '../../src/serve/variant-keys.js';

const joined = (parts: readonly unknown[]) =>
  parts.map((p) => (typeof p === 'object' && p !== null ? (p as { version: number }).version : String(p))).join('|');

describe('VariantKeys', () => {
  it('makes a key once per combination of parts and hands back the same slot after', () => {
    let made = 0;
    const keys = new VariantKeys((parts) => {
      made++;
      return joined(parts);
    });
    const v1 = { version: 1 };
    const first = keys.of(['US', 'en', v1]);
    expect(first).toEqual({ key: 'US|en|1', entry: undefined });
    expect(keys.of(['US', 'en', v1])).toBe(first);
    expect(made).toBe(1);
    expect(keys.of(['GB', 'en', v1]).key).toBe('GB|en|1');
    expect(keys.of(['US', 'de', v1]).key).toBe('US|de|1');
    expect(made).toBe(3);
  });

  it('gives a new key when a versioned part is a new object, even with the same fields elsewhere', () => {
    const keys = new VariantKeys(joined);
    expect(keys.of(['US', undefined, { version: 1 }]).key).toBe('US|undefined|1');
    expect(keys.of(['US', undefined, { version: 2 }]).key).toBe('US|undefined|2');
  });

  it('tells undefined from a string part at the same position', () => {
    const keys = new VariantKeys((parts) => `${parts[0]}|${parts[1] ?? '-'}`);
    expect(keys.of(['US', undefined]).key).toBe('US|-');
    expect(keys.of(['US', 'acme']).key).toBe('US|acme');
  });

  it('starts over past its bound and still answers every key right', () => {
    let made = 0;
    const keys = new VariantKeys((parts) => {
      made++;
      return joined(parts);
    }, 3);
    for (const country of ['US', 'GB', 'DE', 'FR', 'JP']) expect(keys.of([country, 'en']).key).toBe(`${country}|en`);
    expect(made).toBe(5);
    // US was dropped when the memo started over at FR.
    expect(keys.of(['US', 'en']).key).toBe('US|en');
    expect(made).toBe(6);
    expect(keys.of(['JP', 'en']).key).toBe('JP|en');
    expect(made).toBe(6);
  });
});
