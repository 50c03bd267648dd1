/**
 * Geo-compliance per operator and jurisdiction (data in compliance-rules.ts), validated when this
 * module loads. Deny by default: an operator is shown only in a jurisdiction one of its rules lists
 * (a country, or an ISO 3166-2 subdivision where licences are regional) and that no national block
 * covers. A bad code, a rule naming an unknown operator, an operator without a rule, a code listed
 * twice, or a rule without source or as-of date fails start-up rather than showing an operator
 * where it may not be shown.
 */
import { z } from 'zod';
import { jurisdictionOf, UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import { OperatorId } from '../model/index.js';
import { COMPLIANCE_RULES, NATIONAL_BLOCKS } from './compliance-rules.js';
import { AsOfDate, entryFor, RuleJurisdiction, Source } from './jurisdiction-schema.js';
import { OPERATORS } from './operators.js';

/** An empty list is allowed: the rule then says why the operator is shown nowhere. */
const Jurisdictions = z.array(RuleJurisdiction);

export const ComplianceRule = z.object({
  operatorId: OperatorId,
  /** Where the operator is licensed or lawfully offered and may be advertised. */
  jurisdictions: Jurisdictions,
  source: Source,
  asOf: AsOfDate,
});
export type ComplianceRule = z.infer<typeof ComplianceRule>;

export const NationalBlock = z.object({
  jurisdiction: RuleJurisdiction,
  operators: z.union([z.literal('all'), z.array(OperatorId).min(1)]),
  source: Source,
  asOf: AsOfDate,
});
export type NationalBlock = z.infer<typeof NationalBlock>;

export interface ComplianceTable {
  /** Whether `operatorId` may be shown to a visitor resolved to `jurisdiction` ("US-NJ", "GB"; ZZ for unknown). */
  isAllowed(operatorId: string, jurisdiction: string): boolean;
  /** The rules that allow `operatorId` somewhere (every one of them, with its source). */
  rules(operatorId: string): readonly ComplianceRule[];
  /** The rule that allows `operatorId` in `jurisdiction`, if one does (the subdivision's, else the country's). */
  ruleFor(operatorId: string, jurisdiction: string): ComplianceRule | undefined;
  /** The national blocks that cover `operatorId` in `jurisdiction` (empty when none does). */
  blocks(operatorId: string, jurisdiction: string): readonly NationalBlock[];
}

function parseOrThrow<T>(schema: z.ZodType<T>, data: unknown, what: string): T {
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new Error(`invalid ${what}:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/**
 * Validates operator rules (at least one per operator id, no code listed twice for an operator,
 * no subdivision listed where its whole country already is) and national blocks.
 * @throws Error listing every problem.
 */
export function buildCompliance(rules: readonly unknown[], operatorIds: readonly string[], nationalBlocks: readonly unknown[] = []): ComplianceTable {
  const parsedRules = parseOrThrow(z.array(ComplianceRule), rules, 'compliance rules');
  const parsedBlocks = parseOrThrow(z.array(NationalBlock), nationalBlocks, 'national blocks');
  // operator id → jurisdiction code → the rule listing it
  const allowed = new Map<string, Map<string, ComplianceRule>>();
  const rulesOf = new Map<string, ComplianceRule[]>();
  const problems: string[] = [];
  for (const r of parsedRules) {
    rulesOf.set(r.operatorId, [...(rulesOf.get(r.operatorId) ?? []), r]);
    if (!operatorIds.includes(r.operatorId)) problems.push(`rule for unknown operator ${r.operatorId}`);
    let codes = allowed.get(r.operatorId);
    if (!codes) allowed.set(r.operatorId, (codes = new Map()));
    for (const code of r.jurisdictions) {
      if (codes.has(code)) problems.push(`${r.operatorId}: ${code} listed twice`);
      codes.set(code, r);
    }
  }
  for (const [id, codes] of allowed) {
    for (const code of codes.keys()) if (code.length > 2 && codes.has(code.slice(0, 2))) problems.push(`${id}: ${code} listed although ${code.slice(0, 2)} is`);
  }
  for (const id of operatorIds) if (!allowed.has(id)) problems.push(`operator ${id} has no compliance rule`);
  // jurisdiction → operator id → the blocks covering it; 'all' expands to every catalog operator.
  const blocked = new Map<string, Map<string, NationalBlock[]>>();
  for (const b of parsedBlocks) {
    const ids = b.operators === 'all' ? operatorIds : b.operators;
    for (const id of ids) {
      if (!operatorIds.includes(id)) problems.push(`national block (${b.jurisdiction}) names unknown operator ${id}`);
      let forCode = blocked.get(b.jurisdiction);
      if (!forCode) blocked.set(b.jurisdiction, (forCode = new Map()));
      forCode.set(id, [...(forCode.get(id) ?? []), b]);
    }
  }
  // A block on part of a country makes the operator unlawful in "the whole country": list the
  // subdivisions where it is allowed instead, so a visitor whose region is unknown does not see it.
  for (const [code, ops] of blocked) {
    if (code.length === 2) continue;
    for (const id of ops.keys()) if (allowed.get(id)?.has(code.slice(0, 2))) problems.push(`${id}: ${code.slice(0, 2)} listed whole although ${code} blocks it`);
  }
  if (problems.length > 0) throw new Error(`invalid compliance rules:\n  ${problems.join('\n  ')}`);

  const blocks = (operatorId: string, code: string): readonly NationalBlock[] => {
    const j = jurisdictionOf(code);
    const national = blocked.get(j.country)?.get(operatorId) ?? [];
    const regional = j.region === null ? [] : (blocked.get(j.region)?.get(operatorId) ?? []);
    return regional.length === 0 ? national : [...national, ...regional];
  };
  const ruleFor = (operatorId: string, code: string): ComplianceRule | undefined => {
    const j = jurisdictionOf(code);
    const codes = allowed.get(operatorId);
    return j.country === UNKNOWN_COUNTRY || !codes ? undefined : entryFor(codes, j.country, j.region);
  };
  return {
    isAllowed: (operatorId, code) => ruleFor(operatorId, code) !== undefined && blocks(operatorId, code).length === 0,
    rules: (operatorId) => rulesOf.get(operatorId) ?? [],
    ruleFor,
    blocks,
  };
}

/** The catalog's compliance table, validated at module load (start-up). */
export const COMPLIANCE: ComplianceTable = buildCompliance(
  COMPLIANCE_RULES,
  OPERATORS.map((op) => op.id),
  NATIONAL_BLOCKS,
);
