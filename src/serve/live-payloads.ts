/**
 * Turns engine changes into payload bytes per topic, coalesced: price changes are pushed at most
 * once per `minIntervalMs`, and the first one after a quiet spell goes out at once. The countdown
 * pushes only when nothing went out for a second, and never delays a price; a window's expiry is
 * pushed at once. WebSocket subscribers get each push; REST reads get bytes at most a second old,
 * never those of an expired window.
 *
 * Bodies are per visitor country (the operators shown differ): a country's variant of a topic is
 * made on its first read, and rebuilt and pushed on changes while someone subscribes to it. One
 * nobody subscribes to is rebuilt on the first read a second after it was built: its reply tells
 * every cache it may keep it a second (`max-age=1, s-maxage=1`), so a REST body that young is as
 * fresh as any reader can count on, and a busy feed (ten pushes a second) costs one rebuild a second
 * per country and advertiser rather than ten.
 */
import { jsonRepresentation } from './payload-cache.js';
import type { Representation } from '../transport/respond.js';
import type { ChangeKind, LiveEngine } from '../live/engine.js';
import { ASSETS, HORIZONS, type Asset, type Horizon } from '../model/index.js';
import { type Clock, systemClock } from '../model/clock.js';
import { liveTopic } from '../live/topic.js';
import { windowAt } from '../live/window.js';

/** Builds a topic's payload for visitors from `country`, its links attributed to `advertiserId` when given. */
export type BuildLive = (
  asset: Asset,
  horizon: Horizon,
  nowMs: number,
  country: string,
  advertiserId?: string,
) => unknown;
export type Push = (topic: string, country: string, body: Buffer) => void;
/** Whether anyone subscribes to a topic's variant for `country` (it is pushed only then). */
export type Wanted = (topic: string, country: string) => boolean;

/** The oldest body a REST read is served: the age its Cache-Control lets any cache add. */
const MAX_REST_AGE_MS = 1000;

interface Variant {
  entry?: Representation;
  builtMs: number;
  /** The expiry of the window the entry was built for: it is never served from then on. */
  validUntilMs: number;
}

interface TopicState {
  /** By visitor country. */
  variants: Map<string, Variant>;
  /** Advertisers' own, by advertiser id then country: read by REST only, never pushed. */
  advertised: Map<string, Map<string, Variant>>;
  /** Last push of a price change: what coalescing counts from. */
  lastPushMs: number;
  /** Last push of any kind. */
  lastAnyPushMs: number;
  timer?: NodeJS.Timeout;
}

export class LivePayloads {
  /** By asset, then horizon: a read on the request path makes no topic string. */
  readonly #topics = new Map<Asset, Map<Horizon, TopicState>>();
  /** Bodies built so far, pushed or read (metrics). */
  builds = 0;
  #push: Push = () => {};
  #wanted: Wanted = () => false;

  constructor(
    readonly engine: LiveEngine,
    private readonly build: BuildLive,
    private readonly minIntervalMs: number,
    private readonly now: Clock = systemClock,
  ) {
    for (const a of ASSETS)
      this.#topics.set(
        a,
        new Map(
          HORIZONS.map((h) => [h, { variants: new Map(), advertised: new Map(), lastPushMs: 0, lastAnyPushMs: 0 }]),
        ),
      );
    engine.onChange((a, h, kind) => this.#schedule(a, h, kind));
  }

  /** Where pushes go (the WebSocket layer) and who wants them, set once the server exists. */
  onPush(push: Push, wanted: Wanted): void {
    this.#push = push;
    this.#wanted = wanted;
  }

  /**
   * The latest body of a topic for visitors from `country`, built now if none is recent. With an
   * `advertiserId` (a registered advertiser's request), its links credit that advertiser: a
   * variant of its own, never shared with another advertiser or the public, and never pushed.
   */
  latest(asset: Asset, horizon: Horizon, country: string, advertiserId?: string): Representation {
    const state = this.#state(asset, horizon);
    let variants: Map<string, Variant> | undefined = state.variants;
    if (advertiserId !== undefined) {
      variants = state.advertised.get(advertiserId);
      if (!variants) state.advertised.set(advertiserId, (variants = new Map()));
    }
    let variant = variants.get(country);
    if (!variant) variants.set(country, (variant = { builtMs: 0, validUntilMs: 0 }));
    // Prices and seconds_left move: never serve a body a second old, nor one of an expired window.
    const now = this.now();
    if (!variant.entry || now - variant.builtMs >= MAX_REST_AGE_MS || now >= variant.validUntilMs)
      this.#rebuild(asset, horizon, country, variant, advertiserId);
    return variant.entry!;
  }

  #state(asset: Asset, horizon: Horizon): TopicState {
    return this.#topics.get(asset)!.get(horizon)!;
  }

  /**
   * Rebuilds and pushes every variant someone subscribes to, now, and makes every other one
   * rebuild on its next read: what each body was built under changed (the compliance views).
   */
  refresh(): void {
    for (const [asset, byHorizon] of this.#topics) {
      for (const [horizon, state] of byHorizon) {
        for (const byCountry of state.advertised.values())
          for (const variant of byCountry.values()) variant.builtMs = -Infinity;
        for (const variant of state.variants.values()) variant.builtMs = -Infinity;
        this.#flush(asset, horizon, state, 'clock');
      }
    }
  }

  stop(): void {
    for (const byHorizon of this.#topics.values()) for (const s of byHorizon.values()) clearTimeout(s.timer);
  }

  #schedule(asset: Asset, horizon: Horizon, kind: ChangeKind): void {
    const state = this.#state(asset, horizon);
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
    const topic = liveTopic(asset, horizon);
    const now = this.now();
    // Bodies nobody is pushed to wait for their next read (within the second, see latest()).
    for (const [country, variant] of state.variants) {
      if (!this.#wanted(topic, country)) continue;
      this.#rebuild(asset, horizon, country, variant);
      this.#push(topic, country, variant.entry!.body);
    }
    if (kind !== 'clock') state.lastPushMs = now;
    state.lastAnyPushMs = now;
  }

  #rebuild(asset: Asset, horizon: Horizon, country: string, variant: Variant, advertiserId?: string): void {
    const now = this.now();
    this.builds++;
    variant.entry = jsonRepresentation(this.build(asset, horizon, now, country, advertiserId), new Date(now));
    variant.builtMs = now;
    variant.validUntilMs = windowAt(now, horizon).endMs;
  }
}
