/**
 * Geo-compliance per operator and country (data in compliance-rules.ts), validated when this module
 * loads: a bad country code, a duplicate, an unknown operator, a catalog operator without a rule, or
 * a rule without source or as-of date fails start-up rather than showing an operator where it may
 * not be shown.
 */
import { z } from 'zod';
import { isCountryCode, UNKNOWN_COUNTRY } from '../geo/countries.js';
import { OperatorId } from '../model/index.js';
import { COMPLIANCE_RULES, NATIONAL_BLOCKS } from './compliance-rules.js';
import { OPERATORS } from './operators.js';

const Country = z.string().refine(isCountryCode, { message: 'not an ISO 3166-1 alpha-2 country code' });
/** The date a rule's source was last checked. */
export const AsOfDate = z.iso.date('as-of date must be YYYY-MM-DD');
const Source = z.string().min(10, 'say where the rule comes from');

export const ComplianceRule = z.object({
  operatorId: OperatorId,
  mode: z.enum(['allow', 'deny']),
  countries: z.array(Country).refine((cs) => new Set(cs).size === cs.length, 'duplicate country'),
  source: Source,
  asOf: AsOfDate,
});
export type ComplianceRule = z.infer<typeof ComplianceRule>;

export const NationalBlock = z.object({
  country: Country,
  operators: z.union([z.literal('all'), z.array(OperatorId).min(1)]),
  source: Source,
  asOf: AsOfDate,
});
export type NationalBlock = z.infer<typeof NationalBlock>;

export interface ComplianceTable {
  /** Whether `operatorId` may be shown to a visitor resolved to `country` (ZZ for unknown). */
  isAllowed(operatorId: string, country: string): boolean;
  rule(operatorId: string): ComplianceRule | undefined;
  /** The national blocks that cover `operatorId` in `country` (empty when none does). */
  blocks(operatorId: string, country: string): readonly NationalBlock[];
}

function parseOrThrow<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`invalid ${what}:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/**
 * Validates operator rules (exactly one per operator id) and national blocks against the operator
 * ids they must cover.
 * @throws Error listing every problem.
 */
export function buildCompliance(rules: readonly unknown[], operatorIds: readonly string[], nationalBlocks: readonly unknown[] = []): ComplianceTable {
  const parsedRules = parseOrThrow(z.array(ComplianceRule), rules, 'compliance rules');
  const parsedBlocks = parseOrThrow(z.array(NationalBlock), nationalBlocks, 'national blocks');
  const byId = new Map<string, ComplianceRule & { set: ReadonlySet<string> }>();
  const problems: string[] = [];
  for (const r of parsedRules) {
    if (byId.has(r.operatorId)) problems.push(`duplicate rule for ${r.operatorId}`);
    byId.set(r.operatorId, { ...r, set: new Set(r.countries) });
  }
  for (const id of operatorIds) if (!byId.has(id)) problems.push(`operator ${id} has no compliance rule`);
  for (const id of byId.keys()) if (!operatorIds.includes(id)) problems.push(`rule for unknown operator ${id}`);
  // country → operator id → the blocks covering it; 'all' expands to every catalog operator.
  const blocked = new Map<string, Map<string, NationalBlock[]>>();
  for (const b of parsedBlocks) {
    const ids = b.operators === 'all' ? operatorIds : b.operators;
    for (const id of ids) {
      if (!operatorIds.includes(id)) problems.push(`national block (${b.country}) names unknown operator ${id}`);
      let forCountry = blocked.get(b.country);
      if (!forCountry) blocked.set(b.country, (forCountry = new Map()));
      forCountry.set(id, [...(forCountry.get(id) ?? []), b]);
    }
  }
  if (problems.length > 0) throw new Error(`invalid compliance rules:\n  ${problems.join('\n  ')}`);

  const blocks = (operatorId: string, country: string) => blocked.get(country)?.get(operatorId) ?? [];
  const blockedSomewhere = new Set([...blocked.values()].flatMap((m) => [...m.keys()]));
  return {
    isAllowed(operatorId, country) {
      const r = byId.get(operatorId);
      if (!r) return false;
      // Unknown country: only an operator allowed everywhere may be shown.
      if (country === UNKNOWN_COUNTRY) return r.mode === 'deny' && r.set.size === 0 && !blockedSomewhere.has(operatorId);
      if (blocks(operatorId, country).length > 0) return false;
      return r.mode === 'allow' ? r.set.has(country) : !r.set.has(country);
    },
    rule: (operatorId) => byId.get(operatorId),
    blocks,
  };
}

/** The catalog's compliance table, validated at module load (start-up). */
export const COMPLIANCE: ComplianceTable = buildCompliance(
  COMPLIANCE_RULES,
  OPERATORS.map((op) => op.id),
  NATIONAL_BLOCKS,
);
