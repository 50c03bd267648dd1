/**
 * Per-address WebSocket slots. A slot is reserved before an upgrade and released when the upgrade
 * is refused or the connection closes. One API process keeps the counts itself; API workers ask
 * their primary (src/cluster/), so one address's connections count once however the kernel spreads
 * them over the workers.
 */

/** Where the WebSocket hub reserves and releases per-address slots. */
export interface ConnectionLedger {
  /** Takes a slot for `address` unless it already holds `max`; false when full. */
  reserve(address: string, max: number): Promise<boolean>;
  /** Gives back one slot taken by `reserve`. */
  release(address: string): void;
}

/**
 * Slot counts per holder (a worker process) and address. A holder's slots can be dropped at once,
 * so a worker that dies never leaks them.
 */
export class SlotCounts {
  private readonly perAddress = new Map<string, number>();
  private readonly perHolder = new Map<number, Map<string, number>>();
  private count = 0;

  /** Takes a slot for `address` on behalf of `holder` unless all holders together have `max`. */
  reserve(holder: number, address: string, max: number): boolean {
    const n = this.perAddress.get(address) ?? 0;
    if (n >= max) return false;
    this.perAddress.set(address, n + 1);
    let held = this.perHolder.get(holder);
    if (!held) this.perHolder.set(holder, (held = new Map()));
    held.set(address, (held.get(address) ?? 0) + 1);
    this.count++;
    return true;
  }

  /** Gives back one of `holder`'s slots for `address`; a no-op when it holds none (dropped already). */
  release(holder: number, address: string): void {
    const held = this.perHolder.get(holder);
    const mine = held?.get(address) ?? 0;
    if (!held || mine === 0) return;
    if (mine === 1) held.delete(address);
    else held.set(address, mine - 1);
    if (held.size === 0) this.perHolder.delete(holder);
    this.take(address, 1);
  }

  /** Releases every slot of `holder` (its process exited). */
  dropHolder(holder: number): void {
    const held = this.perHolder.get(holder);
    if (!held) return;
    this.perHolder.delete(holder);
    for (const [address, n] of held) this.take(address, n);
  }

  /** Slots held in all. */
  total(): number {
    return this.count;
  }

  /** Slots held by `holder`. */
  heldBy(holder: number): number {
    let n = 0;
    for (const v of this.perHolder.get(holder)?.values() ?? []) n += v;
    return n;
  }

  private take(address: string, n: number): void {
    const left = (this.perAddress.get(address) ?? n) - n;
    if (left <= 0) this.perAddress.delete(address);
    else this.perAddress.set(address, left);
    this.count -= n;
  }
}

/** The ledger of a single API process: its own counts, in memory. */
export function localLedger(): ConnectionLedger {
  const counts = new SlotCounts();
  return {
    reserve: (address, max) => Promise.resolve(counts.reserve(0, address, max)),
    release: (address) => counts.release(0, address),
  };
}
