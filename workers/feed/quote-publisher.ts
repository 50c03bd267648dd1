/**
 * Publishes venue quotes as the wire contract says, on `pw:quotes:{ASSET}`, with the latest per
 * venue at `pw:quote:{ASSET}:{h}:{operatorId}` (EX 30) for an API process that starts mid-window:
 * each change at once, and the source's own confirmation (a newer `ts`, same content) at most every
 * `resendMs`. A held quote is never stamped here: when the source stops confirming it (a frozen or
 * silent venue), its `ts` and `venueTs` age and consumers withhold it. A quote whose window has
 * ended is dropped; a dropped quote goes out once with null asks (the venue is out now) and its
 * key is deleted.
 */
import type { Redis } from 'ioredis';
import type { Asset, Horizon, VenueQuoteMessage } from '../../src/model/index.js';
import type { Logger } from '../../src/runtime/log.js';
import type { QuoteSink } from '../../src/sources/quotes/quote-source.js';
import { quoteKey, quotesChannel } from '../../src/store/keys.js';
import { type Clock, systemClock, systemTimers, type Timers } from '../../src/model/clock.js';

const KEY_TTL_SECONDS = 30;

export interface QuotePublisher extends QuoteSink {
  /** Quotes sent so far (changes and re-sends). */
  readonly published: number;
  stop(): void;
}

export interface QuotePublisherOptions {
  log: Logger;
  now?: Clock;
  /** The expiry sweep's timer. */
  timers?: Timers;
  resendMs?: number;
}

/** Same quote apart from when the feed last confirmed it. */
const sameQuote = (a: VenueQuoteMessage, b: VenueQuoteMessage) =>
  JSON.stringify({ ...a, ts: '' }) === JSON.stringify({ ...b, ts: '' });

export function createQuotePublisher(redis: Redis, opts: QuotePublisherOptions): QuotePublisher {
  const now = opts.now ?? systemClock;
  const resendMs = opts.resendMs ?? 5_000;
  const held = new Map<string, VenueQuoteMessage>();
  /** The last quote sent per venue, to forward a confirmation only every `resendMs`. */
  const sent = new Map<string, VenueQuoteMessage>();
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
    sent.delete(id);
    // Our own statement (the venue is out now), so our time; its venueTs stays the venue's.
    send({ ...last, up: null, down: null, ts: new Date(now()).toISOString() }, false);
  };

  // Windows end without a word from the venue: their quotes are withdrawn on time.
  const stopExpiring = (opts.timers ?? systemTimers).every(Math.min(resendMs, 1_000), () => {
    for (const quote of [...held.values()])
      if (Date.parse(quote.expiresAt) <= now()) drop(quote.asset, quote.horizonMinutes, quote.operatorId);
  });

  return {
    get published() {
      return published;
    },
    put(quote) {
      const id = `${quote.asset}:${quote.horizonMinutes}:${quote.operatorId}`;
      held.set(id, quote);
      const last = sent.get(id);
      if (last && sameQuote(last, quote) && Date.parse(quote.ts) - Date.parse(last.ts) < resendMs) return;
      sent.set(id, quote);
      send(quote, true);
    },
    drop,
    stop() {
      stopExpiring();
    },
  };
}
