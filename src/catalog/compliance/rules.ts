/**
 * A rules document (schema.ts) checked as a whole and made into the lookups the catalog's views ask.
 * Deny by default: an operator is shown for a contract category in a jurisdiction only when an allow
 * row lists it there (its subdivision, or its whole country) for that category and no block covers
 * it. Every check names the row at fault; a document with any problem is refused whole, never
 * applied in part (start-up stops; a published document is refused and the running rules stay).
 */
import { Category } from '../../model/index.js';
import { jurisdictionOf, UNKNOWN_COUNTRY } from '../../model/jurisdiction.js';
import { entryFor } from '../jurisdiction-schema.js';
import { withinDomains } from '../../domain/web-domains.js';
import {
  RulesDocument,
  TABLES,
  type AllowRow,
  type AnyRow,
  type BlockRow,
  type DestinationRow,
  type DisclosureRow,
  type InducementBanRow,
  type Table,
} from './schema.js';

/** The disclosure that applies in one jurisdiction, every field resolved. */
export interface Disclosure {
  minAge: number;
  text: string;
  url: string;
  phone: string | null;
}

/** What the rules say of one operator, contract category and jurisdiction (suspensions aside). */
export type Verdict =
  | { shown: true; allow: AllowRow }
  /** No allow row lists the operator there. */
  | { shown: false; reason: 'not_listed' }
  /** Listed there, but not for this category. */
  | { shown: false; reason: 'category'; allow: AllowRow }
  /** Listed there, and blocked by the jurisdiction. */
  | { shown: false; reason: 'blocked'; allow: AllowRow; blocks: readonly BlockRow[] };

export interface ComplianceRules {
  readonly document: RulesDocument;
  readonly revision: number;
  /** What the rules say of `operatorId` on `category` in `jurisdiction` ("US-NJ", "GB"; ZZ: nothing). */
  verdict(operatorId: string, jurisdiction: string, category: Category): Verdict;
  /** The disclosure for `jurisdiction`: its subdivision's fields over its country's; undefined where none is complete. */
  disclosureFor(jurisdiction: string): Disclosure | undefined;
  /** The ban on inducement advertising in `jurisdiction`; a region unknown in a country with a regional ban gets that ban. */
  inducementBan(jurisdiction: string): InducementBanRow | undefined;
  /** The operator's licensed sites other than its default one. */
  destinations(operatorId: string): readonly DestinationRow[];
  /** Every row, table by table, in document order. */
  rows(): readonly AnyRow[];
}

/** A rules document that cannot be applied: every problem, each naming its row. */
export class RulesError extends Error {
  override name = 'RulesError';
  constructor(
    readonly origin: string,
    readonly problems: readonly string[],
  ) {
    super(`invalid ${origin}:\n  ${problems.join('\n  ')}`);
  }
}

/** "row kalshi-us (allow[3])": how a problem names its row, by its id and its place in the file. */
function rowName(raw: unknown, table: string, index: number): string {
  const row = (raw as Record<string, unknown[]> | undefined)?.[table]?.[index] as { id?: unknown } | undefined;
  return typeof row?.id === 'string' ? `row ${row.id} (${table}[${index}])` : `${table}[${index}]`;
}

/** Map of maps, made on first use. */
function inner<K, V>(outer: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let m = outer.get(key);
  if (!m) outer.set(key, (m = new Map()));
  return m;
}

/**
 * Checks `raw` against the schema and as a whole, for the catalog's `operatorIds`.
 * @throws RulesError listing every problem, each with its row.
 */
export function compileRules(
  raw: unknown,
  operatorIds: readonly string[],
  origin = 'compliance rules',
): ComplianceRules {
  const parsed = RulesDocument.safeParse(raw);
  if (!parsed.success) {
    throw new RulesError(
      origin,
      parsed.error.issues.map((i) => {
        const [table, index, ...rest] = i.path;
        const where =
          typeof table === 'string' && typeof index === 'number'
            ? rowName(raw, table, index)
            : i.path.join('.') || '(document)';
        return `${where}${rest.length > 0 ? ` ${rest.join('.')}` : ''}: ${i.message}`;
      }),
    );
  }
  const doc = parsed.data;
  const problems: string[] = [];
  const name = (table: Table, row: AnyRow['row']) =>
    rowName(doc, table, (doc[table] as ReadonlyArray<AnyRow['row']>).indexOf(row));
  const known = new Set(operatorIds);

  const ids = new Map<string, string>();
  for (const table of TABLES) {
    for (const row of doc[table]) {
      const seen = ids.get(row.id);
      if (seen) problems.push(`${name(table, row)}: id already used by a row of ${seen}`);
      ids.set(row.id, table);
    }
  }

  // operator id → jurisdiction code → the allow rows listing it (for categories that do not overlap)
  const allowed = new Map<string, Map<string, AllowRow[]>>();
  const overlap = (a: AllowRow, b: AllowRow) =>
    !a.categories || !b.categories || a.categories.some((c) => b.categories!.includes(c));
  for (const row of doc.allow) {
    if (!known.has(row.operator)) problems.push(`${name('allow', row)}: unknown operator ${row.operator}`);
    const codes = inner(allowed, row.operator);
    for (const code of row.jurisdictions) {
      const others = codes.get(code) ?? [];
      const other = others.find((o) => overlap(o, row));
      if (other)
        problems.push(
          `${name('allow', row)}: ${row.operator} in ${code} is already listed${other === row ? ' twice' : ` by ${name('allow', other)}`}${row.categories || other.categories ? ' for the same categories' : ''}`,
        );
      codes.set(code, [...others, row]);
    }
  }
  for (const [id, codes] of allowed) {
    for (const [code, rows] of codes) {
      const whole = codes.get(code.slice(0, 2))?.[0];
      if (code.length > 2 && whole)
        problems.push(
          `${name('allow', rows[0]!)}: ${id} in ${code} listed although ${name('allow', whole)} lists all of ${code.slice(0, 2)}`,
        );
    }
  }
  for (const id of operatorIds)
    if (!allowed.has(id))
      problems.push(`operator ${id} has no allow row (a row with no jurisdiction says why it is shown nowhere)`);

  // jurisdiction → operator id → the blocks covering it; 'all' stands for every catalog operator.
  const blocked = new Map<string, Map<string, BlockRow[]>>();
  for (const row of doc.blocks) {
    for (const id of row.operators === 'all' ? operatorIds : row.operators) {
      if (!known.has(id)) problems.push(`${name('blocks', row)}: unknown operator ${id}`);
      const forCode = inner(blocked, row.jurisdiction);
      forCode.set(id, [...(forCode.get(id) ?? []), row]);
      // A block on part of a country makes the operator unlawful in "the whole country": the allow
      // row must list subdivisions instead, so a visitor whose region is unknown does not see it.
      const whole = row.jurisdiction.length > 2 ? allowed.get(id)?.get(row.jurisdiction.slice(0, 2))?.[0] : undefined;
      if (whole)
        problems.push(
          `${name('allow', whole)}: ${id} listed in all of ${row.jurisdiction.slice(0, 2)} although ${name('blocks', row)} blocks it in ${row.jurisdiction}`,
        );
    }
  }

  const bans = new Map<string, InducementBanRow>();
  for (const row of doc.inducement_bans) {
    const other = bans.get(row.jurisdiction);
    if (other)
      problems.push(
        `${name('inducement_bans', row)}: ${row.jurisdiction} already has ${name('inducement_bans', other)}`,
      );
    bans.set(row.jurisdiction, row);
  }
  /** A visitor whose region is unknown gets the strictest rule of the country: any regional ban applies. */
  const bannedSomewhere = new Map(
    doc.inducement_bans.filter((b) => b.jurisdiction.length > 2).map((b) => [b.jurisdiction.slice(0, 2), b]),
  );

  const destinations = new Map<string, DestinationRow[]>();
  const routed = new Map<string, DestinationRow>();
  for (const row of doc.destinations) {
    if (!known.has(row.operator)) problems.push(`${name('destinations', row)}: unknown operator ${row.operator}`);
    destinations.set(row.operator, [...(destinations.get(row.operator) ?? []), row]);
    for (const code of row.jurisdictions) {
      const other = routed.get(`${row.operator} ${code}`);
      if (other)
        problems.push(
          `${name('destinations', row)}: ${row.operator} in ${code} already goes to ${name('destinations', other)}`,
        );
      routed.set(`${row.operator} ${code}`, row);
    }
    const host = new URL(row.url).hostname;
    if (!withinDomains(host, row.web_domains))
      problems.push(`${name('destinations', row)}: ${host} is not within its web_domains`);
  }

  const disclosures = new Map<string, DisclosureRow>();
  for (const row of doc.disclosures) {
    const other = disclosures.get(row.jurisdiction);
    if (other)
      problems.push(`${name('disclosures', row)}: ${row.jurisdiction} already has ${name('disclosures', other)}`);
    disclosures.set(row.jurisdiction, row);
  }
  const disclosureFor = (code: string): Disclosure | undefined => {
    const j = jurisdictionOf(code);
    const country = disclosures.get(j.country);
    const region = j.region === null ? undefined : disclosures.get(j.region);
    const minAge = region?.min_age ?? country?.min_age;
    const text = region?.text ?? country?.text;
    const url = region?.url ?? country?.url;
    const phone = region?.phone !== undefined ? region.phone : country?.phone;
    return minAge === undefined || text === undefined || url === undefined
      ? undefined
      : { minAge, text, url, phone: phone ?? null };
  };
  // Every jurisdiction an operator may be shown in has a complete disclosure.
  for (const row of doc.allow) {
    for (const code of row.jurisdictions)
      if (disclosureFor(code) === undefined)
        problems.push(`${name('allow', row)}: no complete disclosure (min_age, text, url) for ${code}`);
  }

  if (problems.length > 0) throw new RulesError(origin, problems);

  const blocksFor = (operatorId: string, country: string, region: string | null): BlockRow[] => {
    const national = blocked.get(country)?.get(operatorId) ?? [];
    const regional = region === null ? [] : (blocked.get(region)?.get(operatorId) ?? []);
    return regional.length === 0 ? national : [...national, ...regional];
  };
  const rows = TABLES.flatMap((table) =>
    (doc[table] as ReadonlyArray<AnyRow['row']>).map((row) => ({ table, row }) as AnyRow),
  );
  return {
    document: doc,
    revision: doc.revision,
    verdict(operatorId, code, category) {
      const j = jurisdictionOf(code);
      const codes = allowed.get(operatorId);
      const rows = j.country === UNKNOWN_COUNTRY || !codes ? undefined : entryFor(codes, j.country, j.region);
      if (!rows) return { shown: false, reason: 'not_listed' };
      const allow = rows.find((r) => !r.categories || r.categories.includes(category));
      if (!allow) return { shown: false, reason: 'category', allow: rows[0]! };
      const blocks = blocksFor(operatorId, j.country, j.region).filter(
        (b) => !b.categories || b.categories.includes(category),
      );
      return blocks.length > 0 ? { shown: false, reason: 'blocked', allow, blocks } : { shown: true, allow };
    },
    disclosureFor,
    inducementBan(code) {
      const j = jurisdictionOf(code);
      return entryFor(bans, j.country, j.region) ?? (j.region === null ? bannedSomewhere.get(j.country) : undefined);
    },
    destinations: (operatorId) => destinations.get(operatorId) ?? [],
    rows: () => rows,
  };
}

/** Every contract category: what "every surface" means. */
export const CATEGORIES: readonly Category[] = Category.options;

/**
 * A rules document as text (a file, or what was published through Redis), checked as
 * {@link compileRules} checks it. @throws RulesError listing every problem; text that is not JSON is one.
 */
export function compileRulesText(
  text: string,
  operatorIds: readonly string[],
  origin = 'compliance rules',
): ComplianceRules {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new RulesError(origin, [`not JSON: ${(err as Error).message}`]);
  }
  return compileRules(raw, operatorIds, origin);
}
