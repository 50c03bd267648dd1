/** Which variants were built before: only a first build is charged (variant_build). */
import { describe, expect, it } from 'vitest';
import { BuiltVariants } from '../../src/limits/built-variants.js';

describe('BuiltVariants', () => {
  it('a variant is first once, whoever builds it again later; path and query both make the variant', () => {
    const built = new BuiltVariants();
    const event = { path: '/v1/widgets/event', query: 'slug=a' };
    expect(built.has(event)).toBe(false);
    expect(built.first(event)).toBe(true);
    expect(built.has(event)).toBe(true);
    // Rebuilt after a data change, by anyone: not a first build.
    expect(built.first({ ...event })).toBe(false);
    expect(built.first({ path: '/v1/widgets/event', query: 'slug=b' })).toBe(true);
    expect(built.first({ path: '/v1/widgets/broad', query: 'slug=a' })).toBe(true);
  });
});
