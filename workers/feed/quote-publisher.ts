/**
 * Publishes venue quotes as the wire contract says: each change at once, every held quote again at
 * least every `resendMs`, on `pw:quotes:{ASSET}`, with the latest per venue at
 * `pw:quote:{ASSET}:{h}:{operatorId}` (EX 30) for an API process that starts mid-window. A quote
 * whose window has ended is dropped; a dropped quote goes out once with null asks (the venue is
 * out now) and its key is deleted.
 */
import type { Redis } from 'ioredis';
import type { Asset, Horizon, VenueQuoteMessage } from '../../src/live/market.js';
import type { Logger } from '../../src/log.js';
import type { QuoteSink } from '../../src/sources/quotes/quote-source.js';
import { quoteKey, quotesChannel } from '../../src/store/keys.js';

const KEY_TTL_SECONDS = 30;

export interface QuotePublisher extends QuoteSink {
  /** Quotes sent so far (changes and re-sends). */
  readonly published: number;
  stop(): void;
}

export interface QuotePublisherOptions {
  log: Logger;
  now?: () => number;
  resendMs?: number;
}

/** Same quote apart from its timestamp: nothing to announce. */
const sameQuote = (a: VenueQuoteMessage, b: VenueQuoteMessage) => JSON.stringify({ ...a, ts: '' }) === JSON.stringify({ ...b, ts: '' });

export function createQuotePublisher(redis: Redis, opts: QuotePublisherOptions): QuotePublisher {
  const now = opts.now ?? Date.now;
  const held = new Map<string, VenueQuoteMessage>();
  let published = 0;
  let failing = false;

  const send = (quote: VenueQuoteMessage, keep: boolean) => {
    published++;
    const text = JSON.stringify(quote);
    const key = quoteKey(quote.asset, quote.horizonMinutes, quote.operatorId);
    // The key first, so a consumer that reads it on hearing the message finds this quote.
    const tx = redis.multi();
    if (keep) tx.set(key, text, 'EX', KEY_TTL_SECONDS);
    else tx.del(key);
    tx.publish(quotesChannel(quote.asset), text)
      .exec()
      .then(() => (failing = false))
      .catch((err: Error) => {
        // The next change or re-send repairs it; the connection itself logs its outage.
        if (!failing) opts.log.warn({ err: err.message }, 'quote publish failed');
        failing = true;
      });
  };

  const drop = (asset: Asset, horizonMinutes: Horizon, operatorId: string) => {
    const id = `${asset}:${horizonMinutes}:${operatorId}`;
    const last = held.get(id);
    if (!last) return;
    held.delete(id);
    send({ ...last, up: null, down: null, ts: new Date(now()).toISOString() }, false);
  };

  const resend = setInterval(() => {
    const ts = new Date(now()).toISOString();
    for (const quote of [...held.values()]) {
      if (Date.parse(quote.expiresAt) <= now()) drop(quote.asset, quote.horizonMinutes, quote.operatorId);
      else send({ ...quote, ts }, true);
    }
  }, opts.resendMs ?? 5_000);

  return {
    get published() {
      return published;
    },
    put(quote) {
      const id = `${quote.asset}:${quote.horizonMinutes}:${quote.operatorId}`;
      const last = held.get(id);
      held.set(id, quote);
      if (!last || !sameQuote(last, quote)) send(quote, true);
    },
    drop,
    stop() {
      clearInterval(resend);
    },
  };
}
