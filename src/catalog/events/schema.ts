/**
 * The cross-venue event catalog: reviewed data saying which venue market is which outcome of which
 * real-world event. Nothing here is inferred at run time; the matcher only proposes entries.
 */
import { z } from 'zod';
import { Category, IsoTime, Slug } from '../../model/index.js';

/**
 * `invert: true` when the venue's YES is our outcome's NO (the venue asks "will X stay?" where we
 * ask "will X leave?"): the quote is then the venue's NO price.
 */
const Invert = z.boolean().default(false);

export const KalshiRef = z.object({
  operator: z.literal('kalshi'),
  /** The market ticker, e.g. KXUSAIRANAGREEMENT-27-26APR. */
  ticker: z.string().regex(/^[A-Z0-9][A-Z0-9._-]{2,99}$/),
  /** The web page slug of kalshi.com/markets/{series}/{page}/{event}, when reviewed. */
  page: Slug.optional(),
  /** The market's question as reviewed; a re-listed market whose question turned around is dropped. */
  title: z.string().min(1).max(300).optional(),
  invert: Invert,
});
export type KalshiRef = z.infer<typeof KalshiRef>;

export const PolymarketRef = z.object({
  operator: z.literal('polymarket'),
  /** The Gamma event slug (also the web page polymarket.com/event/{eventSlug}). */
  eventSlug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(200),
  /** The market slug within the event. */
  marketSlug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(200),
  /** The market's conditionId, recorded when reviewed so a re-listed slug is noticed. */
  conditionId: z
    .string()
    .regex(/^0x[0-9a-f]{64}$/)
    .optional(),
  /** The market's question as reviewed; a re-listed market whose question turned around is dropped. */
  title: z.string().min(1).max(300).optional(),
  /**
   * For a market with named outcomes (["Lakers","Celtics"]): the venue outcome that is our outcome.
   * Sides are mapped by this label, never by position.
   */
  outcome: z.string().min(1).max(100).optional(),
  invert: Invert,
});
export type PolymarketRef = z.infer<typeof PolymarketRef>;

export const MarketRef = z.discriminatedUnion('operator', [KalshiRef, PolymarketRef]);
export type MarketRef = z.infer<typeof MarketRef>;

export const CatalogOutcome = z.object({
  name: z.string().min(1).max(200),
  refs: z.array(MarketRef).min(1),
});

export const CatalogEvent = z.object({
  slug: Slug,
  question: z.string().min(1).max(300),
  category: Category,
  closesAt: IsoTime,
  outcomes: z.array(CatalogOutcome).min(1),
  /**
   * Exactly one outcome resolves YES (mutually exclusive and exhaustive), so probabilities are
   * normalised over them. Defaults to true only for a Yes/No pair; a reviewer sets it otherwise.
   */
  exclusive: z.boolean().optional(),
  /**
   * Each outcome implies the next (a deadline ladder, earliest first: "before April" implies
   * "before August"), so a later outcome is never less likely; the quality gate holds the venues'
   * prices to that (docs/sources.md, structure).
   */
  nested: z.boolean().optional(),
  /** Where the venues' resolution rules differ, in words a reviewer wrote. */
  resolutionNote: z.string().max(1000).optional(),
  /** Who reviewed the mapping and when (YYYY-MM-DD). */
  reviewed: z.object({ by: z.string().min(1), on: z.iso.date() }),
});
export type CatalogEvent = z.infer<typeof CatalogEvent>;

const refKey = (r: MarketRef): string =>
  r.operator === 'kalshi' ? `kalshi:${r.ticker}` : `polymarket:${r.eventSlug}/${r.marketSlug}`;

export const EventCatalog = z.array(CatalogEvent).superRefine((events, ctx) => {
  const slugs = new Set<string>();
  events.forEach((ev, i) => {
    if (slugs.has(ev.slug))
      ctx.addIssue({ code: 'custom', path: [i, 'slug'], message: `duplicate event slug ${ev.slug}` });
    slugs.add(ev.slug);
    const names = new Set<string>();
    // A market may back two outcomes of one event only as its YES and its NO.
    const used = new Map<string, boolean[]>();
    ev.outcomes.forEach((o, j) => {
      if (names.has(o.name))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'outcomes', j, 'name'],
          message: `duplicate outcome ${o.name} in ${ev.slug}`,
        });
      names.add(o.name);
      const ops = new Set<string>();
      for (const r of o.refs) {
        if (ops.has(r.operator))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'outcomes', j],
            message: `${ev.slug}/${o.name}: two ${r.operator} markets for one outcome`,
          });
        ops.add(r.operator);
        const k = refKey(r);
        const sides = used.get(k) ?? [];
        if (sides.includes(r.invert))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'outcomes', j],
            message: `${ev.slug}: ${k} used twice on the same side`,
          });
        used.set(k, [...sides, r.invert]);
      }
    });
  });
});
export type EventCatalog = z.infer<typeof EventCatalog>;
