/**
 * The compliance rules document (rules.json, or a file a compliance officer publishes with
 * `npm run compliance -- publish`): who may be shown where and on which surfaces, national blocks,
 * inducement bans, licensed destinations and disclosures. Every row names itself (`id`), says why
 * in words, links its sources and carries the day they were last reviewed. The shape is checked
 * here; what rows mean together (an operator listed twice, a disclosure missing where an operator
 * may be shown) is checked by rules.ts.
 */
import { z } from 'zod';
import { Category, OperatorId } from '../../model/index.js';
import { RuleJurisdiction } from '../jurisdiction-schema.js';
import { SubIdParam } from '../operator-schema.js';

/** A row's name: lower-case words joined by hyphens ("kalshi-us", "us-mn-prediction-markets"). */
export const RowId = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by hyphens')
  .max(64);

/** Contract categories a row applies to; left out, every category. */
const Categories = z.array(Category).min(1);

/** What every row carries: why, the sources read (links a reader can open) and the day they were read. */
const Reviewed = {
  why: z.string().min(10, 'say why, in words'),
  sources: z.array(z.url({ protocol: /^https?$/ })).min(1, 'link at least one source'),
  reviewed_on: z.iso.date('reviewed_on must be YYYY-MM-DD'),
};

/** Where an operator may be shown: licensed or lawfully offered, and advertising it is lawful. */
export const AllowRow = z
  .object({
    id: RowId,
    operator: OperatorId,
    /** Countries, or subdivisions where licensing is regional; empty: the row says why it is shown nowhere. */
    jurisdictions: z.array(RuleJurisdiction),
    /**
     * The contract categories (surfaces) it may be shown for there; left out, every one. Two rows
     * may list one operator in one jurisdiction only for categories that do not overlap.
     */
    categories: Categories.optional(),
    /** The operator's own minimum age for what the row allows, where it differs from the jurisdiction's disclosure. */
    min_age: z.number().int().min(18).max(21).optional(),
    ...Reviewed,
  })
  .strict();
export type AllowRow = z.infer<typeof AllowRow>;

/** A jurisdiction's own ban on operators (or on some of their contract categories), over any allow row. */
export const BlockRow = z
  .object({
    id: RowId,
    jurisdiction: RuleJurisdiction,
    operators: z.union([z.literal('all'), z.array(OperatorId).min(1)]),
    categories: Categories.optional(),
    ...Reviewed,
  })
  .strict();
export type BlockRow = z.infer<typeof BlockRow>;

/** Where advertising inducements (sign-up offers, bonuses, promo codes) to the public is banned. */
export const InducementBanRow = z.object({ id: RowId, jurisdiction: RuleJurisdiction, ...Reviewed }).strict();
export type InducementBanRow = z.infer<typeof InducementBanRow>;

const Domain = z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, 'a host name such as nj.bet365.com');

/** The site an operator is licensed to serve some jurisdictions from, where it is not its default one. */
export const DestinationRow = z
  .object({
    id: RowId,
    operator: OperatorId,
    jurisdictions: z.array(RuleJurisdiction).min(1),
    /** Where a click from there lands. */
    url: z.url({ protocol: /^https$/ }),
    /** The site's own hosts (a host and its subdomains): a contract-page deep link must stay within them. */
    web_domains: z.array(Domain).min(1),
    /**
     * The parameter this site's affiliate programme reads the click id from (docs/postbacks.md): a
     * licensed site is often run by another company, on another programme, than the default one.
     */
    click_id_param: SubIdParam,
    ...Reviewed,
  })
  .strict();
export type DestinationRow = z.infer<typeof DestinationRow>;

/** What a page must show beside gambling advertising there; a subdivision's row overrides its country's field by field. */
export const DisclosureRow = z
  .object({
    id: RowId,
    jurisdiction: RuleJurisdiction,
    /** The minimum age to open an account (the strictest where operators differ). */
    min_age: z.number().int().min(18).max(21).optional(),
    /** The responsible-gambling message, in the jurisdiction's language. */
    text: z.string().min(10).optional(),
    /** The help service the message names. */
    url: z.url({ protocol: /^https$/ }).optional(),
    /** The helpline; null where none could be confirmed. */
    phone: z
      .string()
      .regex(/^[0-9A-Z +-]{3,20}$/)
      .nullable()
      .optional(),
    ...Reviewed,
  })
  .strict();
export type DisclosureRow = z.infer<typeof DisclosureRow>;

export const RulesDocument = z
  .object({
    /** Raised with every published change: a process keeps the highest revision it has seen valid. */
    revision: z.number().int().min(1),
    allow: z.array(AllowRow),
    blocks: z.array(BlockRow),
    inducement_bans: z.array(InducementBanRow),
    destinations: z.array(DestinationRow),
    disclosures: z.array(DisclosureRow),
  })
  .strict();
export type RulesDocument = z.infer<typeof RulesDocument>;

/** The document's tables, in the order the page and the audit list them. */
export const TABLES = ['allow', 'blocks', 'inducement_bans', 'destinations', 'disclosures'] as const;
export type Table = (typeof TABLES)[number];

/** Any row, with the table it is in. */
export type AnyRow =
  | { table: 'allow'; row: AllowRow }
  | { table: 'blocks'; row: BlockRow }
  | { table: 'inducement_bans'; row: InducementBanRow }
  | { table: 'destinations'; row: DestinationRow }
  | { table: 'disclosures'; row: DisclosureRow };
