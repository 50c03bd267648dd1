/**
 * The live-market engine of one API process. It folds price ticks from Redis pub/sub into
 * per-(asset, horizon) contract windows aligned to the clock. A window's strike is the first tick
 * stamped within `strikeMaxLagMs` of its start, written once with SET NX so every API instance
 * shows the same strike; an instance that starts mid-window reads it back. A window whose start no
 * tick caught has no strike at all: a late price is never the strike. The venues' own quotes
 * (`pw:quotes:{ASSET}`) are held beside the ticks and handed out with the view.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { strikeKey, ticksChannel } from '../store/keys.js';
import { ASSETS, HORIZONS, Tick, type Asset, type Horizon, type VenueQuoteMessage } from '../model/index.js';
import { SpotPath, type PathPoint } from './spot-path.js';
import { VenueQuoteBook } from './venue-quote-book.js';
import { priorVariance } from './volatility.js';
import { tickMaySetStrike, windowAt, type ContractWindow } from './window.js';
import { type Clock, MAX_CLOCK_SKEW_MS, systemClock } from '../model/clock.js';

interface AssetState {
  spot?: number;
  lastTickMs?: number;
  source?: string;
  /** Per-second variance of log price: the newest tick's, as the feed measured it (every process alike). */
  variance: number;
}

interface WindowState {
  asset: Asset;
  horizon: Horizon;
  window: ContractWindow;
  strike?: number;
  /** A SET NX / GET for this window's strike is in flight. */
  claiming: boolean;
  /** A qualifying tick is being stored: the strike is coming, not missed. */
  tickClaimed: boolean;
  /** The clock has told listeners about this window (a read may roll to it first). */
  announced: boolean;
  /** The first qualifying tick that arrived while a read was in flight: the strike if none is stored. */
  pendingPrice?: number;
  /** The ticks this process saw in the window, one per slot (spot-path.ts). */
  path: SpotPath;
}

/** Everything a payload builder needs about one (asset, horizon), at one moment. */
export interface LiveView {
  asset: Asset;
  horizon: Horizon;
  window: ContractWindow;
  strike?: number;
  /**
   * `set`: the strike is known; `awaiting`: the window is young enough (or a qualifying tick is
   * being stored) for one to come; `missed`: no tick caught the window start, so there is none.
   */
  strikeStatus: 'set' | 'awaiting' | 'missed';
  spot?: number;
  lastTickMs?: number;
  /** Per-second variance of log price. */
  variance: number;
  /** The latest quote each venue published for this (asset, horizon), whatever its window or age. */
  quotes: readonly VenueQuoteMessage[];
  /** The spot's path since the strike, starting with it (empty without a strike). */
  path: readonly PathPoint[];
}

/** `tick`: prices, quotes or the strike changed; `clock`: only the countdown moved; `roll`: a window expired. */
export type ChangeKind = 'tick' | 'clock' | 'roll';
export type LiveListener = (asset: Asset, horizon: Horizon, kind: ChangeKind) => void;

export interface LiveEngineOptions {
  redis: Redis;
  subscriber: Redis;
  /** The connection for venue quotes; without one the engine holds no quotes. */
  quoteSubscriber?: Redis;
  log: Logger;
  /** Only a tick stamped within this many ms of a window's start may become its strike. */
  strikeMaxLagMs?: number;
  now?: Clock;
}

export const DEFAULT_STRIKE_MAX_LAG_MS = 2000;

export class LiveEngine {
  readonly #assets = new Map<Asset, AssetState>();
  readonly #windows = new Map<string, WindowState>();
  readonly #listeners = new Set<LiveListener>();
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #log: Logger;
  readonly #now: Clock;
  readonly #strikeMaxLagMs: number;
  readonly #quotes: VenueQuoteBook | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  /** Ticks dropped, by why: `malformed`, or `future` (stamped more than MAX_CLOCK_SKEW_MS ahead of our clock). */
  readonly #dropped = { malformed: 0, future: 0 };
  #ticksApplied = 0;

  constructor(opts: LiveEngineOptions) {
    this.#redis = opts.redis;
    this.#subscriber = opts.subscriber;
    this.#log = opts.log;
    this.#now = opts.now ?? systemClock;
    this.#strikeMaxLagMs = opts.strikeMaxLagMs ?? DEFAULT_STRIKE_MAX_LAG_MS;
    this.#quotes =
      opts.quoteSubscriber &&
      new VenueQuoteBook(opts.redis, opts.quoteSubscriber, opts.log, (a, h) => this.#emit(a, h, 'tick'));
    for (const asset of ASSETS) {
      this.#assets.set(asset, { variance: priorVariance(asset) });
    }
  }

  /** Subscribes to the tick and quote channels, loads current strikes and quotes, and starts the clock. */
  async start(): Promise<void> {
    this.#subscriber.on('message', (channel: string, message: string) => {
      if (channel.startsWith('pw:ticks:')) this.ingest(message);
    });
    await this.#subscriber.subscribe(...ASSETS.map(ticksChannel));
    await this.#quotes?.start();
    await Promise.all(ASSETS.flatMap((a) => HORIZONS.map((h) => this.#readStrike(this.#window(a, h, this.#now())))));
    this.#armClock();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  /**
   * The clock fires on each whole second: windows expire on whole minutes, so the roll happens at
   * expiry (not up to a second later) and the countdown moves when its displayed value does.
   */
  #armClock(): void {
    if (this.#stopped) return;
    // +1 ms: a timer may fire a hair early, and the roll must see the new second.
    this.#timer = setTimeout(
      () => {
        this.#onSecond();
        this.#armClock();
      },
      1001 - (this.#now() % 1000),
    );
    this.#timer.unref();
  }

  onChange(listener: LiveListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Parses and applies one tick message from `pw:ticks:{ASSET}`. Malformed ticks are counted and dropped. */
  ingest(message: string): void {
    let tick: Tick;
    try {
      tick = Tick.parse(JSON.parse(message));
    } catch {
      if (this.#dropped.malformed++ % 1000 === 0)
        this.#log.warn({ message: message.slice(0, 200), dropped: this.#dropped.malformed }, 'dropping malformed tick');
      return;
    }
    this.apply(tick);
  }

  /**
   * Applies a validated tick. Its stamp is never later than our clock: one further ahead than
   * MAX_CLOCK_SKEW_MS is dropped (a feed whose clock lies would freeze the spot until real time
   * caught up with it), one a little ahead counts as stamped now.
   */
  apply(tick: Tick): void {
    const stampMs = Date.parse(tick.ts);
    const nowMs = this.#now();
    if (stampMs > nowMs + MAX_CLOCK_SKEW_MS) {
      if (this.#dropped.future++ % 1000 === 0)
        this.#log.warn(
          { ts: tick.ts, asset: tick.asset, dropped: this.#dropped.future },
          'dropping tick stamped in the future',
        );
      return;
    }
    const tickMs = Math.min(stampMs, nowMs);
    const state = this.#assets.get(tick.asset)!;
    // The spot follows the newest tick: an older one (arriving late, or a feed's window-start tick
    // sent after newer ones) never moves it backwards, but may still be a window's strike.
    const newest = state.lastTickMs === undefined || tickMs >= state.lastTickMs;
    if (newest) {
      state.variance = tick.variance ?? priorVariance(tick.asset);
      state.spot = tick.price;
      state.lastTickMs = tickMs;
      state.source = tick.source;
      this.#ticksApplied++;
    }
    for (const horizon of HORIZONS) {
      const ws = this.#window(tick.asset, horizon, nowMs);
      ws.path.add(tickMs, tick.price);
      const strikes = ws.strike === undefined && tickMaySetStrike(tickMs, ws.window, this.#strikeMaxLagMs);
      if (strikes) {
        ws.tickClaimed = true;
        if (!ws.claiming) void this.#claimStrike(tick.asset, horizon, ws, tick.price);
        else ws.pendingPrice ??= tick.price;
      }
      if (newest || strikes) this.#emit(tick.asset, horizon, 'tick');
    }
  }

  /** Counters for readiness output and benchmarks (`badTicks`: every tick dropped, `droppedTicks` by why). */
  stats(): {
    ticksApplied: number;
    badTicks: number;
    droppedTicks: { malformed: number; future: number };
    lastTickAt: Partial<Record<Asset, string>>;
    quotesHeld: number;
    badQuotes: number;
  } {
    const lastTickAt: Partial<Record<Asset, string>> = {};
    for (const [asset, s] of this.#assets)
      if (s.lastTickMs !== undefined) lastTickAt[asset] = new Date(s.lastTickMs).toISOString();
    const droppedTicks = { ...this.#dropped };
    return {
      ticksApplied: this.#ticksApplied,
      badTicks: droppedTicks.malformed + droppedTicks.future,
      droppedTicks,
      lastTickAt,
      ...(this.#quotes?.stats() ?? { quotesHeld: 0, badQuotes: 0 }),
    };
  }

  /** The latest quote each venue published for (asset, horizon), whatever its window or age (for metrics). */
  heldQuotes(asset: Asset, horizon: Horizon): readonly VenueQuoteMessage[] {
    return this.#quotes?.of(asset, horizon) ?? [];
  }

  /** The current view of one (asset, horizon). */
  view(asset: Asset, horizon: Horizon): LiveView {
    const state = this.#assets.get(asset)!;
    const now = this.#now();
    const ws = this.#window(asset, horizon, now);
    const strikeStatus =
      ws.strike !== undefined
        ? 'set'
        : ws.tickClaimed || now <= ws.window.startMs + this.#strikeMaxLagMs
          ? 'awaiting'
          : 'missed';
    return {
      asset,
      horizon,
      window: ws.window,
      strike: ws.strike,
      strikeStatus,
      spot: state.spot,
      lastTickMs: state.lastTickMs,
      variance: state.variance,
      quotes: this.#quotes?.of(asset, horizon) ?? [],
      path: ws.strike === undefined ? [] : ws.path.points(ws.strike),
    };
  }

  /** The window state for `now`, rolled if the stored one has expired. */
  #window(asset: Asset, horizon: Horizon, now: number): WindowState {
    const id = `${asset}:${horizon}`;
    const current = this.#windows.get(id);
    if (current && now < current.window.endMs) return current;
    const window = windowAt(now, horizon);
    const next: WindowState = {
      asset,
      horizon,
      window,
      claiming: false,
      tickClaimed: false,
      announced: false,
      path: new SpotPath(window),
    };
    this.#windows.set(id, next);
    return next;
  }

  /**
   * Reads the strike another instance may have stored for this window: at the roll, when starting
   * mid-window, and each second while the window has none (another instance may have caught the
   * start this one missed; what it stored is still the price at the start).
   */
  async #readStrike(ws: WindowState): Promise<void> {
    if (ws.strike !== undefined || ws.claiming) return;
    const { asset, horizon } = ws;
    ws.claiming = true;
    try {
      const stored = await this.#redis.get(strikeKey(asset, horizon, ws.window.startMs / 1000));
      if (stored !== null && Number(stored) > 0) ws.strike = Number(stored);
    } catch (err) {
      this.#log.warn({ err: (err as Error).message, asset, horizon }, 'could not read strike');
    } finally {
      ws.claiming = false;
    }
    // Nothing stored, but a tick of this window's start came in while we were reading: it is the first.
    if (ws.strike === undefined && ws.pendingPrice !== undefined)
      return this.#claimStrike(asset, horizon, ws, ws.pendingPrice);
    if (ws.strike !== undefined) this.#emit(asset, horizon, 'tick');
  }

  /** SET NX the strike; whoever wins, read back the value every instance will show. */
  async #claimStrike(asset: Asset, horizon: Horizon, ws: WindowState, price: number): Promise<void> {
    ws.claiming = true;
    const key = strikeKey(asset, horizon, ws.window.startMs / 1000);
    try {
      // Kept two windows past expiry so an instance starting late can still read it.
      const ttlSec = Math.ceil((ws.window.endMs - ws.window.startMs) / 1000) * 3;
      const set = await this.#redis.set(key, String(price), 'EX', ttlSec, 'NX');
      const strike = set === 'OK' ? price : Number(await this.#redis.get(key));
      // A key that vanished between SET NX and GET reads as 0: leave the strike open for the next tick.
      if (strike > 0) ws.strike = strike;
      ws.pendingPrice = undefined;
    } catch (err) {
      // Keep the price: it is still the price at the start, and the clock retries it each second.
      ws.pendingPrice = price;
      this.#log.warn({ err: (err as Error).message, asset, horizon }, 'could not claim strike; will retry');
    } finally {
      ws.claiming = false;
      ws.tickClaimed = ws.pendingPrice !== undefined;
    }
    this.#emit(asset, horizon, 'tick');
  }

  #onSecond(): void {
    const now = this.#now();
    for (const asset of ASSETS) {
      for (const horizon of HORIZONS) {
        const ws = this.#window(asset, horizon, now);
        // An expired window's payload must go at once: subscribers would otherwise hold it.
        this.#emit(asset, horizon, ws.announced ? 'clock' : 'roll');
        ws.announced = true;
        if (ws.strike === undefined) void this.#readStrike(ws);
      }
    }
  }

  #emit(asset: Asset, horizon: Horizon, kind: ChangeKind): void {
    for (const l of this.#listeners) l(asset, horizon, kind);
  }
}
