/** Per-address WebSocket slots: one cap across holders (API workers), and a dead holder's slots freed. */
import { describe, expect, it } from 'vitest';
import { localLedger, SlotCounts, SlotView } from '../../src/transport/ws/connection-ledger.js';

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
    expect(slots.release(1, 'a')).toBe(true);
    expect(slots.reserve(2, 'a', 2)).toBe(true);
    expect(slots.reserve(2, 'a', 2)).toBe(false);
  });

  it('drops every slot of a holder at once, leaving the others, and says which addresses had some', () => {
    const slots = new SlotCounts();
    slots.reserve(1, 'a', 2);
    slots.reserve(1, 'b', 2);
    slots.reserve(2, 'a', 2);
    expect(slots.dropHolder(1).sort()).toEqual(['a', 'b']);
    expect([slots.of('a'), slots.of('b')]).toEqual([1, 0]);
    expect([...slots.addresses()]).toEqual([['a', 1]]);
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
    expect(slots.release(1, 'a')).toBe(false);
    expect(slots.release(2, 'a')).toBe(false);
    expect(slots.total()).toBe(1);
    expect(slots.reserve(2, 'b', 1)).toBe(false);
    expect(slots.reserve(2, 'a', 1)).toBe(true);
  });
});

describe('localLedger', () => {
  it('is the cap of one process, answered at once', () => {
    const ledger = localLedger();
    const lost = () => {
      throw new Error('a local slot is never lost');
    };
    expect(ledger.reserve('a', 1, lost)).toBe(true);
    expect(ledger.reserve('a', 1, lost)).toBe(false);
    ledger.release('a');
    expect(ledger.reserve('a', 1, lost)).toBe(true);
  });
});

describe('SlotView', () => {
  it('grants at once up to its share of the room the count leaves, then leaves it to the primary', () => {
    const view = new SlotView(2);
    // 20 - 0 = 20 free, 10 for each of two workers.
    for (let i = 0; i < 10; i++) expect(view.grantNow('a', 20)).toBe(true);
    expect(view.grantNow('a', 20)).toBe(false);
    expect(view.grantNow('b', 20)).toBe(true);
    // The primary answered all ten: 10 held, 5 each left.
    for (let i = 0; i < 10; i++) view.answered('a');
    view.update('a', 10);
    for (let i = 0; i < 5; i++) expect(view.grantNow('a', 20)).toBe(true);
    expect(view.grantNow('a', 20)).toBe(false);
  });

  it('near the cap grants nothing at once, and again when slots are freed', () => {
    const view = new SlotView(2);
    view.update('a', 19);
    expect(view.grantNow('a', 20)).toBe(false); // one free, two workers: the primary decides
    view.update('a', 0);
    expect(view.grantNow('a', 20)).toBe(true);
  });

  it('never grants at once when the workers alone could fill the cap', () => {
    expect(new SlotView(4).grantNow('a', 3)).toBe(false);
    const three = new SlotView(3);
    expect(three.grantNow('a', 3)).toBe(true);
    expect(three.grantNow('a', 3)).toBe(false);
  });
});
