/**
 * Prediction-market events: fair probabilities from drifting logits, then each venue's ask price
 * (fair value, the venue's own lean, half the spread, rounded to its tick) and 24-hour volume.
 */
import type { EventsData, MarketEvent, Outcome, Quote } from '../../model/index.js';
import { drift, epochSec, EVENT_OCTAVES, HOT_OCTAVES, VENUE_OCTAVES, VOLUME_OCTAVES } from './drift.js';
import { EVENT_TEMPLATES, kalshiTicker, type EventTemplate } from './event-catalog.js';
import { between, createRng, key, mix } from './rng.js';
import { askOnTick, bidOnTick } from './ticks.js';
import { marketUrl, slugify, venueProfile, type MarketRef } from './venues.js';

const logit = (p: number): number => Math.log(p / (1 - p));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/**
 * A venue's mid prices for a multi-outcome event: the fair probabilities bent by the venue's lean,
 * renormalized so they still sum to 1 (a venue whose mids summed below 1 would be giving money away).
 */
function venueMids(seed: number, slug: string, venue: string, fair: readonly number[], tSec: number): number[] {
  const raw = fair.map((p, i) => sigmoid(logit(p) + venueLean(seed, slug, venue, i, tSec)));
  const sum = raw.reduce((s, x) => s + x, 0);
  return raw.map((x) => x / sum);
}

/** Fair probabilities of an event's outcomes at time t: softmax of drifting logits. */
function fairProbabilities(seed: number, t: EventTemplate, slug: string, tSec: number): number[] {
  const total = t.outcomes.reduce((s, o) => s + o.prior, 0);
  const logits = t.outcomes.map((o, i) => {
    const k = key(seed, slug, 'fair', String(i));
    // A per-seed offset so different seeds tell different stories from the same priors.
    const offset = createRng(k).normal() * 0.2;
    let x = Math.log(o.prior / total) + offset + drift(k, tSec, EVENT_OCTAVES);
    if (t.hot) x += drift(mix(k, 7), tSec, HOT_OCTAVES);
    return x;
  });
  // A binary market has one degree of freedom: keep NO's logit still so YES carries all the drift.
  if (t.binary && logits.length === 2) logits[1] = Math.log((t.outcomes[1]?.prior ?? 0.5) / total);
  const max = Math.max(...logits);
  const exps = logits.map((x) => Math.exp(x - max));
  const sum = exps.reduce((s, x) => s + x, 0);
  return exps.map((x) => x / sum);
}

/** A venue's lean on one outcome, in logit units: a fixed part and a slow wander. */
function venueLean(seed: number, slug: string, venue: string, outcome: number, tSec: number): number {
  const k = key(seed, slug, 'lean', venue, String(outcome));
  return createRng(k).normal() * 0.05 + drift(k, tSec, VENUE_OCTAVES);
}

/** 24-hour USD volume of one quote: event size x outcome attention x venue share, heavy-tailed. */
function quoteVolume(
  seed: number,
  t: EventTemplate,
  slug: string,
  venue: string,
  outcome: number,
  share: number,
  tSec: number,
): number {
  const k = key(seed, slug, 'volume', venue, String(outcome));
  const size = Math.exp(createRng(k).normal() * 0.6);
  const wander = Math.exp(drift(k, tSec, VOLUME_OCTAVES));
  return Math.round(t.volumeUsd * share * venueProfile(venue).volumeShare * size * wander);
}

function buildEvent(seed: number, t: EventTemplate, now: Date): MarketEvent {
  const inst = t.instance(now);
  const tSec = epochSec(now);
  const fair = fairProbabilities(seed, t, inst.slug, tSec);
  // Attention is concave in probability: longshots trade, just less.
  const weights = fair.map((p) => p ** 0.6);
  const wsum = weights.reduce((s, w) => s + w, 0);
  const ticker = kalshiTicker(t, inst.tickerDate ?? inst.closesAt);
  const kalshi = t.kalshi && ticker ? { series: t.kalshi.series, page: t.kalshi.page, eventTicker: ticker } : undefined;

  const mids = new Map<string, number[]>();
  const midsOf = (venue: string): number[] => {
    let m = mids.get(venue);
    if (!m) {
      if (t.binary) {
        // One order book: NO ask = 1 - YES bid, so both sides share the venue's YES mid.
        const yes = sigmoid(logit(fair[0] ?? 0.5) + venueLean(seed, inst.slug, venue, 0, tSec));
        m = [yes, 1 - yes];
      } else {
        m = venueMids(seed, inst.slug, venue, fair, tSec);
      }
      mids.set(venue, m);
    }
    return m;
  };

  const outcomes: Outcome[] = t.outcomes.map((o, i) => {
    const venues = o.venues ?? t.venues;
    const quotes: Quote[] = venues.map((venue) => {
      const prof = venueProfile(venue);
      const half = between(key(seed, inst.slug, 'spread', venue), prof.halfSpread[0], prof.halfSpread[1]);
      const mid = midsOf(venue)[i] ?? 0.5;
      const ref: MarketRef = { slug: inst.slug, ...(kalshi ? { kalshi } : {}) };
      if (!t.binary) ref.outcomeSlug = slugify(o.name);
      const bid = bidOnTick(mid - half, prof.tick);
      return {
        operatorId: venue,
        yesPrice: askOnTick(mid + half, prof.tick),
        ...(bid !== undefined ? { yesBid: bid } : {}),
        volume24hUsd: quoteVolume(seed, t, inst.slug, venue, i, (weights[i] ?? 0) / wsum, tSec),
        marketUrl: marketUrl(venue, ref),
      };
    });
    return { name: o.name, quotes };
  });

  return {
    slug: inst.slug,
    question: inst.question,
    category: t.category,
    closesAt: inst.closesAt.toISOString(),
    outcomes,
    // Every template lists outcomes of which exactly one happens: the fair probabilities are a
    // softmax over them (Yes/No, or "who wins" among the listed names).
    exclusive: true,
  };
}

/** Every simulated event at a clock: a pure function of (seed, now). */
export function buildEvents(seed: number, now: Date): EventsData {
  return { events: EVENT_TEMPLATES.map((t) => buildEvent(seed, t, now)) };
}
