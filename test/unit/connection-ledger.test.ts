/** Per-address WebSocket slots: one cap across holders (API workers), and a dead holder's slots freed. */
import { describe, expect, it } from 'vitest';
import { localLedger, SlotCounts } from '../../src/ws/connection-ledger.js';

describe('SlotCounts', () => {
  it('caps an address across holders, not per holder', () => {
    const slots = new SlotCounts();
    expect(slots.reserve(1, 'a', 3)).toBe(true);
    expect(slots.reserve(2, 'a', 3)).toBe(true);
    expect(slots.reserve(1, 'a', 3)).toBe(true);
    expect(slots.reserve(2, 'a', 3)).toBe(false);
    expect(slots.reserve(2, 'b', 3)).toBe(true);
    expect(slots.total()).toBe(4);
    expect([slots.heldBy(1), slots.heldBy(2)]).toEqual([2, 2]);
  });

  it('frees a slot on release, for any holder to take', () => {
    const slots = new SlotCounts();
    slots.reserve(1, 'a', 2);
    slots.reserve(1, 'a', 2);
    slots.release(1, 'a');
    expect(slots.reserve(2, 'a', 2)).toBe(true);
    expect(slots.reserve(2, 'a', 2)).toBe(false);
  });

  it('drops every slot of a holder at once, leaving the others', () => {
    const slots = new SlotCounts();
    slots.reserve(1, 'a', 2);
    slots.reserve(1, 'b', 2);
    slots.reserve(2, 'a', 2);
    slots.dropHolder(1);
    expect(slots.total()).toBe(1);
    expect(slots.heldBy(1)).toBe(0);
    expect(slots.reserve(3, 'a', 2)).toBe(true);
    expect(slots.reserve(3, 'a', 2)).toBe(false);
  });

  it('ignores a release for a slot the holder does not hold (late, after its drop)', () => {
    const slots = new SlotCounts();
    slots.reserve(1, 'a', 1);
    slots.reserve(2, 'b', 1);
    slots.dropHolder(1);
    slots.release(1, 'a');
    slots.release(2, 'a');
    expect(slots.total()).toBe(1);
    expect(slots.reserve(2, 'b', 1)).toBe(false);
    expect(slots.reserve(2, 'a', 1)).toBe(true);
  });
});

describe('localLedger', () => {
  it('is the cap of one process', async () => {
    const ledger = localLedger();
    expect(await ledger.reserve('a', 1)).toBe(true);
    expect(await ledger.reserve('a', 1)).toBe(false);
    ledger.release('a');
    expect(await ledger.reserve('a', 1)).toBe(true);
  });
});
