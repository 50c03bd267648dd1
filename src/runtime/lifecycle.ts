/**
 * A process's parts, started in one place and stopped in reverse order: a part stops only after
 * every part added after it (which may use it) has stopped, one at a time.
 */
export class Lifecycle {
  readonly #stops: Array<() => unknown> = [];

  /** Starts a part now and registers how it stops. */
  async start<T>(start: () => T | Promise<T>, stop: (part: T) => unknown): Promise<T> {
    const part = await start();
    this.#stops.push(() => stop(part));
    return part;
  }

  /** Registers how a part that is already running stops. */
  onStop(stop: () => unknown): void {
    this.#stops.push(stop);
  }

  /**
   * Stops every part, the last added first, each awaited before the next. A stop that fails does
   * not keep the others from stopping; the first failure is thrown at the end.
   */
  async stop(): Promise<void> {
    let failure: { err: unknown } | undefined;
    for (let stop = this.#stops.pop(); stop; stop = this.#stops.pop()) {
      try {
        await stop();
      } catch (err) {
        failure ??= { err };
      }
    }
    if (failure) throw failure.err;
  }
}
