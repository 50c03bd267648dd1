/**
 * Geo-compliance rules per operator (data in compliance-rules.ts), validated when this module loads:
 * a bad country code, a duplicate, an unknown operator or a catalog operator without a rule fails
 * start-up rather than showing an operator where it may not be shown.
 */
import { z } from 'zod';
import { isCountryCode, UNKNOWN_COUNTRY } from '../geo/countries.js';
import { OperatorId } from '../model/index.js';
import { COMPLIANCE_RULES } from './compliance-rules.js';
import { OPERATORS } from './operators.js';

const Country = z.string().refine(isCountryCode, { message: 'not an ISO 3166-1 alpha-2 country code' });

export const ComplianceRule = z.object({
  operatorId: OperatorId,
  mode: z.enum(['allow', 'deny']),
  countries: z.array(Country).refine((cs) => new Set(cs).size === cs.length, 'duplicate country'),
  source: z.string().min(10, 'say where the rule comes from'),
});
export type ComplianceRule = z.infer<typeof ComplianceRule>;

export interface ComplianceTable {
  /** Whether `operatorId` may be shown to a visitor resolved to `country` (ZZ for unknown). */
  isAllowed(operatorId: string, country: string): boolean;
  rule(operatorId: string): ComplianceRule | undefined;
}

/**
 * Validates rules against the operator ids they must cover (exactly one rule each).
 * @throws Error listing every problem.
 */
export function buildCompliance(rules: readonly unknown[], operatorIds: readonly string[]): ComplianceTable {
  const parsed = z.array(ComplianceRule).safeParse(rules);
  if (!parsed.success) {
    throw new Error(`invalid compliance rules:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  }
  const byId = new Map<string, ComplianceRule & { set: ReadonlySet<string> }>();
  const problems: string[] = [];
  for (const r of parsed.data) {
    if (byId.has(r.operatorId)) problems.push(`duplicate rule for ${r.operatorId}`);
    byId.set(r.operatorId, { ...r, set: new Set(r.countries) });
  }
  for (const id of operatorIds) if (!byId.has(id)) problems.push(`operator ${id} has no compliance rule`);
  for (const id of byId.keys()) if (!operatorIds.includes(id)) problems.push(`rule for unknown operator ${id}`);
  if (problems.length > 0) throw new Error(`invalid compliance rules:\n  ${problems.join('\n  ')}`);

  return {
    isAllowed(operatorId, country) {
      const r = byId.get(operatorId);
      if (!r) return false;
      // Unknown country: only an operator allowed everywhere may be shown.
      if (country === UNKNOWN_COUNTRY) return r.mode === 'deny' && r.set.size === 0;
      return r.mode === 'allow' ? r.set.has(country) : !r.set.has(country);
    },
    rule: (operatorId) => byId.get(operatorId),
  };
}

/** The catalog's compliance table, validated at module load (start-up). */
export const COMPLIANCE: ComplianceTable = buildCompliance(
  COMPLIANCE_RULES,
  OPERATORS.map((op) => op.id),
);
