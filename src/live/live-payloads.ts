/**
 * Turns engine changes into payload bytes per topic, coalesced: price changes are pushed at most
 * once per `minIntervalMs`, and the first one after a quiet spell goes out at once. The countdown
 * pushes only when nothing went out for a second, and never delays a price; a window's expiry is
 * pushed at once. REST reads the latest bytes, never those of an expired window; WebSocket
 * subscribers get each push.
 */
import { toCachedBody, type CachedBody } from '../http/payload-cache.js';
import type { ChangeKind, LiveEngine } from './engine.js';
import { ASSETS, HORIZONS, liveTopic, type Asset, type Horizon } from './market.js';
import { windowAt } from './window.js';

/** Builds a topic's payload, its links attributed to `advertiserId` when given. */
export type BuildLive = (asset: Asset, horizon: Horizon, nowMs: number, advertiserId?: string) => unknown;
export type Push = (topic: string, body: Buffer) => void;

interface TopicState {
  entry?: CachedBody;
  builtMs: number;
  /** The expiry of the window the entry was built for: it is never served from then on. */
  validUntilMs: number;
  /** Last push of a price change: what coalescing counts from. */
  lastPushMs: number;
  /** Last push of any kind. */
  lastAnyPushMs: number;
  timer?: NodeJS.Timeout;
}

export class LivePayloads {
  readonly #topics = new Map<string, TopicState>();
  #push: Push = () => {};

  constructor(
    readonly engine: LiveEngine,
    private readonly build: BuildLive,
    private readonly minIntervalMs: number,
    private readonly now: () => number = Date.now,
  ) {
    for (const a of ASSETS) for (const h of HORIZONS) this.#topics.set(liveTopic(a, h), { builtMs: 0, validUntilMs: 0, lastPushMs: 0, lastAnyPushMs: 0 });
    engine.onChange((a, h, kind) => this.#schedule(a, h, kind));
  }

  /** Where pushes go (the WebSocket layer), set once the server exists. */
  onPush(push: Push): void {
    this.#push = push;
  }

  /** The latest body for a topic, built now if none is recent. */
  latest(asset: Asset, horizon: Horizon): CachedBody {
    const state = this.#topics.get(liveTopic(asset, horizon))!;
    // seconds_left moves every second: never serve a body older than that, nor one of an expired window.
    const now = this.now();
    if (!state.entry || now - state.builtMs >= 1000 || now >= state.validUntilMs) this.#rebuild(asset, horizon, state);
    return state.entry!;
  }

  /**
   * A body whose links credit `advertiserId`, built for this request: attributed requests are the
   * advertiser API's and few, and sharing them would leak one advertiser's links to another.
   */
  forAdvertiser(asset: Asset, horizon: Horizon, advertiserId: string): CachedBody {
    return this.#entry(this.build(asset, horizon, this.now(), advertiserId), this.now());
  }

  stop(): void {
    for (const s of this.#topics.values()) clearTimeout(s.timer);
  }

  #schedule(asset: Asset, horizon: Horizon, kind: ChangeKind): void {
    const state = this.#topics.get(liveTopic(asset, horizon))!;
    if (kind === 'roll') {
      // The old window's payload is void: replace it now, whatever push was due.
      clearTimeout(state.timer);
      state.timer = undefined;
      return this.#flush(asset, horizon, state, kind);
    }
    if (state.timer) return; // a push is already due and will include this change
    if (kind === 'clock') {
      if (this.now() - state.lastAnyPushMs >= 1000) this.#flush(asset, horizon, state, kind);
      return;
    }
    const wait = state.lastPushMs + this.minIntervalMs - this.now();
    if (wait <= 0) return this.#flush(asset, horizon, state, kind);
    state.timer = setTimeout(() => {
      state.timer = undefined;
      this.#flush(asset, horizon, state, kind);
    }, wait);
  }

  #flush(asset: Asset, horizon: Horizon, state: TopicState, kind: ChangeKind): void {
    this.#rebuild(asset, horizon, state);
    if (kind !== 'clock') state.lastPushMs = state.builtMs;
    state.lastAnyPushMs = state.builtMs;
    this.#push(liveTopic(asset, horizon), state.entry!.body);
  }

  // No operators listed as shown: widgets poll this every few seconds, which is not a view.
  #entry(payload: unknown, now: number): CachedBody {
    return toCachedBody(payload, new Date(now));
  }

  #rebuild(asset: Asset, horizon: Horizon, state: TopicState): void {
    const now = this.now();
    state.entry = this.#entry(this.build(asset, horizon, now), now);
    state.builtMs = now;
    state.validUntilMs = windowAt(now, horizon).endMs;
  }
}
