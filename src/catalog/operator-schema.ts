/**
 * The operator catalog: who the operators are and how a widget presents them. This is reviewed
 * business data (not upstream data), shared by every source, validated at start-up.
 */
import { z } from 'zod';
import { Locale, OperatorId } from '../model/index.js';
import { RuleJurisdiction } from './jurisdiction-schema.js';

export const OperatorKind = z.enum(['exchange', 'crypto', 'sportsbook']);
export type OperatorKind = z.infer<typeof OperatorKind>;

export const AppStore = z.enum(['iOS', 'Google Play']);

export const PromoCopy = z.object({
  promoText: z.string().min(1).max(200),
  ctaLabel: z.string().min(1).max(40),
  /** The offer's significant terms, shown with it (English is the fallback). */
  terms: z.string().min(1).max(400).optional(),
});

/**
 * One promotional offer and the jurisdictions whose visitors it is for. */
export const Offer = z.object({
  jurisdictions: z.array(RuleJurisdiction).min(1),
  promoCode: z
    .string()
    .regex(/^[A-Z0-9]{3,20}$/)
    .optional(),
  /** Live-market coupon, e.g. "$10 bonus". */
  couponValue: z.string().max(40).optional(),
  /** Promo and call-to-action copy per locale; English is required (the fallback), with its significant terms. */
  copy: z.object({ en: PromoCopy.required({ terms: true }) }).catchall(PromoCopy),
  /** The offer's full terms on the operator's site. */
  termsUrl: z.url({ protocol: /^https$/ }),
  /** Where the terms were read, and when. */
  source: z.string().min(10),
  asOf: z.iso.date(),
});
export type Offer = z.infer<typeof Offer>;

/** An affiliate query parameter name such as aff_sub or btag. */
export const SubIdParam = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/);

export const Operator = z.object({
  id: OperatorId,
  name: z.string().min(1).max(60),
  kind: OperatorKind,
  /** Editorial rating out of 5, one decimal. */
  rating: z.number().min(0).max(5).multipleOf(0.1),
  appStores: z.array(AppStore),
  /** Such as PRO_LIQUIDITY (docs/contract.md, sportsbook widget). */
  capabilities: z.array(z.string().regex(/^[A-Z][A-Z_]+$/)),
  /**
   * Where a click lands by default. Destinations come only from here and from the compliance rules'
   * licensed sites per jurisdiction (`destinations`), never from a request.
   */
  affiliateUrl: z.url({ protocol: /^https$/ }),
  /**
   * The operator's own sites (a host and its subdomains). A signed deep link may land on a
   * contract page only within these; affiliate URLs often sit on tracking hosts, so this is
   * stated, not derived.
   */
  webDomains: z.array(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/)).min(1),
  /**
   * The query parameters this operator's affiliate program reads sub-ids from, per value we pass
   * (a click on the affiliate URL carries them; contract-page deep links stay as they are).
   */
  subIdParams: z
    .object({
      impression: SubIdParam.optional(),
      advertiser: SubIdParam.optional(),
      widget: SubIdParam.optional(),
      placement: SubIdParam.optional(),
      country: SubIdParam.optional(),
      /** The click id on the default site, which the operator's postbacks quote back (docs/postbacks.md). */
      click: SubIdParam.optional(),
    })
    .strict()
    .optional(),
  /**
   * The operator's offers, each for the jurisdictions whose visitors it applies to (a US-dollar US
   * offer is for US visitors only). A jurisdiction no offer names gets none; where inducement
   * advertising is banned (promotion-policy.ts) none is shown whatever this says.
   */
  offers: z.array(Offer).default([]),
});
export type Operator = z.infer<typeof Operator>;
/** An operator as written in the catalog (offers may be left out). */
export type OperatorInput = z.input<typeof Operator>;

export const OperatorCatalog = z
  .array(Operator)
  .min(1)
  .superRefine((ops, ctx) => {
    const seen = new Set<string>();
    for (const op of ops) {
      if (seen.has(op.id)) ctx.addIssue({ code: 'custom', message: `duplicate operator id ${op.id}` });
      seen.add(op.id);
      // Every site says where the click id goes: without it no postback could name a click.
      if (!op.subIdParams?.click)
        ctx.addIssue({ code: 'custom', message: `${op.id}: subIdParams.click names no click id parameter` });
      const offered = new Set<string>();
      for (const offer of op.offers) {
        for (const loc of Object.keys(offer.copy)) {
          if (!Locale.safeParse(loc).success)
            ctx.addIssue({ code: 'custom', message: `${op.id}: unknown locale ${loc}` });
        }
        for (const c of offer.jurisdictions) {
          if (offered.has(c)) ctx.addIssue({ code: 'custom', message: `${op.id}: two offers for ${c}` });
          offered.add(c);
        }
      }
    }
  });
