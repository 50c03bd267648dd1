/**
 * The venues' own up/down quotes as one API process holds them: the latest VenueQuoteMessage per
 * (asset, horizon, operator) from `pw:quotes:{ASSET}`, seeded from the `pw:quote:*` keys at start so
 * an instance starting mid-window has them at once. Which of them count for a window, and when, is
 * decided where the payload is built (live-quotes.ts), since it depends on the clock.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { quotesChannel } from '../store/keys.js';
import { ASSETS, VenueQuoteMessage, type Asset, type Horizon } from '../model/index.js';

export type QuoteListener = (asset: Asset, horizon: Horizon) => void;

export class VenueQuoteBook {
  readonly #latest = new Map<string, VenueQuoteMessage>();
  #badQuotes = 0;

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly log: Logger,
    private readonly onChange: QuoteListener,
  ) {}

  /** Subscribes first, then reads the stored quotes, so none published in between is missed. */
  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel.startsWith('pw:quotes:')) this.ingest(message);
    });
    await this.subscriber.subscribe(...ASSETS.map(quotesChannel));
    await this.#loadStored();
  }

  /** Parses and keeps one quote message. Malformed ones are counted and dropped. */
  ingest(message: string): void {
    let quote: VenueQuoteMessage;
    try {
      quote = VenueQuoteMessage.parse(JSON.parse(message));
    } catch {
      if (this.#badQuotes++ % 1000 === 0)
        this.log.warn({ message: message.slice(0, 200), dropped: this.#badQuotes }, 'dropping malformed venue quote');
      return;
    }
    this.put(quote);
  }

  /** Keeps `quote` unless the one held for its venue is for a later window or newer. */
  put(quote: VenueQuoteMessage): void {
    const id = `${quote.asset}:${quote.horizonMinutes}:${quote.operatorId}`;
    const held = this.#latest.get(id);
    if (held) {
      const byWindow = Date.parse(quote.windowStart) - Date.parse(held.windowStart);
      if (byWindow < 0 || (byWindow === 0 && Date.parse(quote.ts) < Date.parse(held.ts))) return;
    }
    this.#latest.set(id, quote);
    this.onChange(quote.asset, quote.horizonMinutes);
  }

  /** The latest quote of every venue for (asset, horizon), whatever its window or age. */
  of(asset: Asset, horizon: Horizon): VenueQuoteMessage[] {
    const out: VenueQuoteMessage[] = [];
    for (const q of this.#latest.values()) if (q.asset === asset && q.horizonMinutes === horizon) out.push(q);
    return out;
  }

  stats(): { quotesHeld: number; badQuotes: number } {
    return { quotesHeld: this.#latest.size, badQuotes: this.#badQuotes };
  }

  async #loadStored(): Promise<void> {
    try {
      const keys: string[] = [];
      for await (const batch of this.redis.scanStream({ match: 'pw:quote:*', count: 200 }))
        keys.push(...(batch as string[]));
      if (keys.length === 0) return;
      for (const raw of await this.redis.mget(...keys)) if (raw !== null) this.ingest(raw);
    } catch (err) {
      // The channel fills the book within seconds anyway: a live venue's quotes are confirmed at least every 5 s.
      this.log.warn({ err: (err as Error).message }, 'could not read stored venue quotes');
    }
  }
}
