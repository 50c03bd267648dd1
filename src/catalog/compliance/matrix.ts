/**
 * The compliance matrix a compliance officer reads instead of the code (GET /v1/compliance, and the
 * /compliance page made from it): every operator by jurisdiction and surface, shown or hidden and
 * why (the rows that decide it, or a suspension), every row with its sources and review date, and
 * the active suspensions. Built from this process's compliance state; the date is passed in.
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../../geo/countries.js';
import { SUBDIVISION_CODES, subdivisionName } from '../../geo/subdivisions.js';
import { Category, IsoTime, OperatorId } from '../../model/index.js';
import { jurisdictionOf, UNKNOWN_COUNTRY } from '../../model/jurisdiction.js';
import type { Operator } from '../operator-schema.js';
import { daysSince } from './review.js';
import { CATEGORIES, type ComplianceRules } from './rules.js';
import { RowId, TABLES, type AnyRow } from './schema.js';
import type { ComplianceState } from './state.js';
import { suspends, suspensionField, type Suspension } from './suspensions.js';

const Jurisdiction = z
  .string()
  .describe('A country (ISO 3166-1 alpha-2), or a US state or Canadian province (ISO 3166-2).');
const Reason = z
  .enum(['allowed', 'not_listed', 'category', 'blocked', 'suspended'])
  .describe(
    '`allowed`: an allow row lists the operator there for these surfaces; `not_listed`: no allow row does (deny by default); `category`: allow rows list it there, but not for these surfaces; `blocked`: a block row covers it; `suspended`: an active suspension withdraws it.',
  );

const Verdict = z.object({
  surfaces: z.array(Category).describe('The contract categories this verdict is for.'),
  shown: z.boolean().describe('Whether the operator is shown for these surfaces there.'),
  reason: Reason,
  rows: z.array(RowId).describe('The rows that decide it (ids in `rows`).'),
  suspension: z
    .string()
    .nullable()
    .describe('The `key` of the suspension that withdraws it, when `reason` is `suspended`.'),
});

const Cell = z.object({
  operator: OperatorId.describe('The operator (an id of `operators`).'),
  verdicts: z
    .array(Verdict)
    .describe('One per group of surfaces with the same outcome and reasons, in category order.'),
  destination: RowId.nullable().describe(
    "The destination row whose site a click from there lands on; null: the operator's default site.",
  ),
});

const JurisdictionEntry = z.object({
  code: Jurisdiction,
  name: z.string().describe('Its English name.'),
  disclosure: z
    .array(RowId)
    .describe("The disclosure rows that apply there (the country's, then the region's overriding it field by field)."),
  inducement_ban: RowId.nullable().describe('The inducement ban that applies there: no offer is shown.'),
  operators: z.array(Cell).describe('Every catalog operator there.'),
});

const RowView = z.object({
  table: z.enum(TABLES).describe('The table of the rules document the row is in.'),
  id: RowId.describe("The row's name."),
  operators: z
    .union([z.literal('all'), z.array(OperatorId)])
    .describe('The operators the row is about (none for inducement bans and disclosures).'),
  jurisdictions: z.array(Jurisdiction).describe('The jurisdictions it names.'),
  categories: z.array(Category).nullable().describe('The surfaces it applies to; null: every one.'),
  why: z.string().describe('Why, in words.'),
  sources: z.array(z.string()).describe('Links to what the row restates.'),
  reviewed_on: z.iso.date().describe('When its sources were last read.'),
  overdue: z.boolean().describe('True when its review is older than `review_days`.'),
  min_age: z
    .number()
    .int()
    .optional()
    .describe("Allow rows: the operator's own minimum age there. Disclosures: the jurisdiction's."),
  url: z.string().optional().describe('Destinations: where a click lands. Disclosures: the help service.'),
  web_domains: z.array(z.string()).optional().describe("Destinations: the site's own hosts."),
  text: z.string().optional().describe('Disclosures: the responsible-gambling message.'),
  phone: z.string().nullable().optional().describe('Disclosures: the helpline; null where none is confirmed.'),
});

export const CompliancePayload = z
  .object({
    rules_revision: z.number().int().describe('The revision of the rules document this process applies.'),
    compliance_revision: z
      .number()
      .int()
      .describe(
        'The revision of the shared compliance state (suspensions, published rules) this process follows; 0: none yet.',
      ),
    refused: z
      .object({
        revision: z.number().int().describe('Its revision.'),
        problems: z.array(z.string()).describe('Every problem, each naming its row.'),
      })
      .nullable()
      .describe(
        'A published rules document this process refused, with each problem naming its row; the rules above stay in force.',
      ),
    as_of: z.iso.date().describe('The UTC day `overdue` is reckoned on.'),
    review_days: z.number().int().describe('COMPLIANCE_REVIEW_DAYS: a row reviewed longer ago is overdue.'),
    surfaces: z.array(Category).describe('Every contract category a rule can name.'),
    operators: z
      .array(
        z.object({
          id: OperatorId.describe('Its id.'),
          name: z.string().describe('Its name.'),
          kind: z.string().describe('exchange, crypto or sportsbook.'),
        }),
      )
      .describe('The catalog operators.'),
    jurisdictions: z
      .array(JurisdictionEntry)
      .describe(
        'Every US state and DC, every Canadian province and territory, and every country a row or suspension names.',
      ),
    elsewhere: z.string().describe('What every jurisdiction not listed shows.'),
    suspensions: z
      .array(
        z.object({
          key: z.string().describe('operator|jurisdiction|surface (* for every surface): what verdicts name.'),
          operator: OperatorId.describe('The operator withdrawn.'),
          jurisdiction: Jurisdiction,
          surface: Category.nullable().describe('null: every surface.'),
          reason: z.string().describe('Why, as given to the command.'),
          by: z.string().describe('Who suspended it.'),
          at: IsoTime.describe('When.'),
        }),
      )
      .describe('The active suspensions (npm run compliance -- suspend).'),
    rows: z.array(RowView).describe('Every row of the rules, or with `jurisdiction` the ones that bear on it.'),
  })
  .describe('GET /v1/compliance: who is shown where, why, on what sources (docs/compliance.md).');
export type CompliancePayload = z.infer<typeof CompliancePayload>;

type Cell = z.infer<typeof Cell>;
type Verdict = z.infer<typeof Verdict>;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
/** "Michigan", "Germany". */
export const jurisdictionName = (code: string): string =>
  code.length > 2
    ? (subdivisionName(code) ?? code)
    : code === UNKNOWN_COUNTRY
      ? 'Unknown'
      : (regionNames.of(code) ?? code);

function rowView(r: AnyRow, nowMs: number, reviewDays: number): z.infer<typeof RowView> {
  const { row } = r;
  const base = {
    table: r.table,
    id: row.id,
    why: row.why,
    sources: row.sources,
    reviewed_on: row.reviewed_on,
    overdue: daysSince(row.reviewed_on, nowMs) > reviewDays,
  };
  switch (r.table) {
    case 'allow': {
      const a = r.row;
      return {
        ...base,
        operators: [a.operator],
        jurisdictions: a.jurisdictions,
        categories: a.categories ?? null,
        ...(a.min_age !== undefined && { min_age: a.min_age }),
      };
    }
    case 'blocks':
      return {
        ...base,
        operators: r.row.operators,
        jurisdictions: [r.row.jurisdiction],
        categories: r.row.categories ?? null,
      };
    case 'destinations':
      return {
        ...base,
        operators: [r.row.operator],
        jurisdictions: r.row.jurisdictions,
        categories: null,
        url: r.row.url,
        web_domains: r.row.web_domains,
      };
    case 'disclosures': {
      const { min_age, text, url, phone } = r.row;
      return {
        ...base,
        operators: [],
        jurisdictions: [r.row.jurisdiction],
        categories: null,
        ...(min_age !== undefined && { min_age }),
        ...(text && { text }),
        ...(url && { url }),
        ...(phone !== undefined && { phone }),
      };
    }
    case 'inducement_bans':
      return { ...base, operators: [], jurisdictions: [r.row.jurisdiction], categories: null };
  }
}

/** One operator's verdicts in `code`, surfaces with the same outcome grouped. */
function cell(op: Operator, code: string, rules: ComplianceRules, suspensions: readonly Suspension[]): Cell {
  const j = jurisdictionOf(code);
  const verdicts: Verdict[] = [];
  for (const category of CATEGORIES) {
    const v = rules.verdict(op.id, code, category);
    let next: Omit<Verdict, 'surfaces'>;
    if (v.shown) {
      const suspension = suspensions.find((s) => suspends(s, op.id, j, category));
      next = suspension
        ? { shown: false, reason: 'suspended', rows: [v.allow.id], suspension: suspensionField(suspension) }
        : { shown: true, reason: 'allowed', rows: [v.allow.id], suspension: null };
    } else if (v.reason === 'not_listed') next = { shown: false, reason: 'not_listed', rows: [], suspension: null };
    else
      next = {
        shown: false,
        reason: v.reason,
        rows: v.reason === 'blocked' ? v.blocks.map((b) => b.id) : [v.allow.id],
        suspension: null,
      };
    const same = verdicts.find(
      (x) => x.reason === next.reason && x.suspension === next.suspension && x.rows.join() === next.rows.join(),
    );
    if (same) same.surfaces.push(category);
    else verdicts.push({ surfaces: [category], ...next });
  }
  const destination =
    rules.destinations(op.id).find((d) => d.jurisdictions.includes(code)) ??
    (j.region ? rules.destinations(op.id).find((d) => d.jurisdictions.includes(j.country)) : undefined);
  return { operator: op.id, verdicts, destination: destination?.id ?? null };
}

/** The rows that bear on `code`: naming it or its country. */
const bearsOn = (view: z.infer<typeof RowView>, code: string) =>
  view.jurisdictions.some((c) => c === code || c === code.slice(0, 2));

/** The jurisdictions the matrix lists: every US and Canadian subdivision, and every country a row or suspension names. */
function jurisdictionsOf(rules: ComplianceRules, suspensions: readonly Suspension[]): string[] {
  const named = new Set<string>([
    ...rules.rows().flatMap(({ row }) => ('jurisdictions' in row ? row.jurisdictions : [row.jurisdiction])),
    ...suspensions.map((s) => s.jurisdiction),
  ]);
  const countries = [...named].filter((c) => c.length === 2 && COUNTRY_CODES.has(c) && c !== 'US' && c !== 'CA').sort();
  return [
    ...SUBDIVISION_CODES.filter((c) => c.startsWith('US-')).sort(),
    ...SUBDIVISION_CODES.filter((c) => c.startsWith('CA-')).sort(),
    ...countries,
  ];
}

export interface MatrixInput {
  state: ComplianceState;
  operators: readonly Operator[];
  /** The compliance revision followed, and a published document refused. */
  followed: { revision: number; refused: { revision: number; problems: readonly string[] } | undefined };
  nowMs: number;
  reviewDays: number;
  /** Only this jurisdiction (and the rows and suspensions bearing on it). */
  only?: string;
}

export function buildComplianceMatrix(input: MatrixInput): CompliancePayload {
  const { rules, suspensions } = input.state;
  const codes = input.only === undefined ? jurisdictionsOf(rules, suspensions) : [input.only];
  const allRows = rules.rows().map((r) => rowView(r, input.nowMs, input.reviewDays));
  const disclosureIds = new Map(rules.document.disclosures.map((d) => [d.jurisdiction, d.id]));
  const jurisdictions = codes.map((code) => {
    const j = jurisdictionOf(code);
    return {
      code,
      name: jurisdictionName(code),
      disclosure: [disclosureIds.get(j.country), j.region === null ? undefined : disclosureIds.get(j.region)].filter(
        (id): id is string => id !== undefined,
      ),
      inducement_ban: rules.inducementBan(code)?.id ?? null,
      operators: input.operators.map((op) => cell(op, code, rules, suspensions)),
    };
  });
  const covers = (s: Suspension) =>
    input.only === undefined || s.jurisdiction === input.only || s.jurisdiction === input.only.slice(0, 2);
  return {
    rules_revision: rules.revision,
    compliance_revision: input.followed.revision,
    refused: input.followed.refused
      ? { revision: input.followed.refused.revision, problems: [...input.followed.refused.problems] }
      : null,
    as_of: new Date(input.nowMs).toISOString().slice(0, 10),
    review_days: input.reviewDays,
    surfaces: [...CATEGORIES],
    operators: input.operators.map((op) => ({ id: op.id, name: op.name, kind: op.kind })),
    jurisdictions,
    elsewhere:
      'Every jurisdiction not listed shows nothing that takes stakes: deny by default. A US or Canadian visitor whose state or province is unknown sees only what is allowed in the whole country: nothing today.',
    suspensions: suspensions.filter(covers).map((s) => ({ key: suspensionField(s), ...s })),
    rows: input.only === undefined ? allRows : allRows.filter((r) => bearsOn(r, input.only!)),
  };
}
