/**
 * Per-address WebSocket slots. A slot is reserved before an upgrade and released when the upgrade
 * is refused or the connection closes. One API process keeps the counts itself; API workers ask
 * their primary (src/cluster/), so one address's connections count once however the kernel spreads
 * them over the workers.
 *
 * An upgrade decided at once is one uWS writes corked (in this uWS build, an upgrade after an await
 * cannot be corked safely: src/transport/ws-server.ts), so a worker grants a slot before its primary answers
 * whenever that is safe by what it knows (`SlotView`), and waits for the answer only near the cap.
 */

/** Where the WebSocket hub reserves and releases per-address slots. */
export interface ConnectionLedger {
  /**
   * Takes a slot for `address` unless the API already holds `max` for it: true or false when this
   * process can answer at once, else a promise of the answer. A slot granted at once may yet be
   * refused by the primary (other workers took the last ones meanwhile): then `lost` runs, and the
   * slot is not held (it must not be released).
   */
  reserve(address: string, max: number, lost: () => void): boolean | Promise<boolean>;
  /** Gives back one slot taken by `reserve`. */
  release(address: string): void;
}

/**
 * A worker's view of the primary's per-address counts, to grant a slot before the primary answers
 * when that is safe: each worker may hold unanswered grants for an address up to its share of the
 * room the count last told leaves, floor((max - count) / workers), so all workers' grants together
 * stay within the cap. Past its share, the primary decides.
 */
export class SlotView {
  readonly #counts = new Map<string, number>();
  readonly #unanswered = new Map<string, number>();

  constructor(private readonly workers: number) {}

  /** The primary's count for `address` is now `n`. */
  update(address: string, n: number): void {
    if (n > 0) this.#counts.set(address, n);
    else this.#counts.delete(address);
  }

  /** True when a slot for `address` may be granted now; the grant is then unanswered until `answered`. */
  grantNow(address: string, max: number): boolean {
    const unanswered = this.#unanswered.get(address) ?? 0;
    const share = Math.floor((max - (this.#counts.get(address) ?? 0)) / this.workers);
    if (unanswered >= share) return false;
    this.#unanswered.set(address, unanswered + 1);
    return true;
  }

  /** The primary answered one of this worker's grants for `address`. */
  answered(address: string): void {
    const left = (this.#unanswered.get(address) ?? 1) - 1;
    if (left > 0) this.#unanswered.set(address, left);
    else this.#unanswered.delete(address);
  }
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

  /**
   * Gives back one of `holder`'s slots for `address`; a no-op when it holds none (dropped already).
   * True when a slot was given back.
   */
  release(holder: number, address: string): boolean {
    const held = this.perHolder.get(holder);
    const mine = held?.get(address) ?? 0;
    if (!held || mine === 0) return false;
    if (mine === 1) held.delete(address);
    else held.set(address, mine - 1);
    if (held.size === 0) this.perHolder.delete(holder);
    this.take(address, 1);
    return true;
  }

  /** Releases every slot of `holder` (its process exited); returns the addresses that had some. */
  dropHolder(holder: number): string[] {
    const held = this.perHolder.get(holder);
    if (!held) return [];
    this.perHolder.delete(holder);
    for (const [address, n] of held) this.take(address, n);
    return [...held.keys()];
  }

  /** Slots held for `address` by every holder. */
  of(address: string): number {
    return this.perAddress.get(address) ?? 0;
  }

  /** Every address that holds slots, with how many. */
  addresses(): IterableIterator<[string, number]> {
    return this.perAddress.entries();
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

/** The ledger of a single API process: its own counts, in memory, so every answer is at once. */
export function localLedger(): ConnectionLedger {
  const counts = new SlotCounts();
  return {
    reserve: (address, max) => counts.reserve(0, address, max),
    release: (address) => void counts.release(0, address),
  };
}
