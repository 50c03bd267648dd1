/**
 * Suspensions: an operator withdrawn from a jurisdiction (on every surface, or one contract
 * category) at once, whatever the rules say, until resumed: what a court order or a regulator's
 * letter needs before the rules file can be reviewed. Kept in Redis (store.ts) with an
 * audit of every change; folded into the catalog's views (state.ts, shown-operators.ts).
 */
import { z } from 'zod';
import { Category, IsoTime, OperatorId } from '../../model/index.js';
import type { Jurisdiction } from '../../model/jurisdiction.js';
import { RuleJurisdiction } from '../jurisdiction-schema.js';

/** Who made a change: a person's name or login, as the command was given it. */
const Actor = z.string().min(1).max(100);
const Reason = z.string().trim().min(3, 'say why (a court order, a letter, ...)').max(500);

export const Suspension = z
  .object({
    operator: OperatorId,
    /** A country (every region of it), or a subdivision where licensing is regional. */
    jurisdiction: RuleJurisdiction,
    /** One contract category; null: every surface. */
    surface: Category.nullable(),
    reason: Reason,
    by: Actor,
    at: IsoTime,
  })
  .strict();
export type Suspension = z.infer<typeof Suspension>;

/** One change, as the audit keeps it (newest first). */
export const AuditEntry = z
  .object({
    action: z.enum(['suspend', 'resume', 'publish', 'restore']),
    at: IsoTime,
    by: Actor,
    reason: z.string().max(500),
    operator: OperatorId.optional(),
    jurisdiction: RuleJurisdiction.optional(),
    surface: Category.nullable().optional(),
    /** The rules revision a `publish` made current. */
    rules_revision: z.number().int().optional(),
    /** The compliance revision the change made (every change raises it by one). */
    revision: z.number().int().optional(),
  })
  .strict();
export type AuditEntry = z.infer<typeof AuditEntry>;

/** The one field a suspension is kept under: a second suspension of the same pair replaces it. */
export const suspensionField = (s: Pick<Suspension, 'operator' | 'jurisdiction' | 'surface'>): string =>
  `${s.operator}|${s.jurisdiction}|${s.surface ?? '*'}`;

/**
 * Whether `s` withdraws `operatorId` from `category` for visitors in `j`: a suspension of a country
 * covers its regions, and a visitor whose region is unknown is covered by a suspension of any
 * region of the country (what is unlawful somewhere in it is not lawful in "the whole country").
 */
export function suspends(s: Suspension, operatorId: string, j: Jurisdiction, category: Category): boolean {
  if (s.operator !== operatorId || (s.surface !== null && s.surface !== category)) return false;
  if (s.jurisdiction === j.code || s.jurisdiction === j.country) return true;
  return j.region === null && s.jurisdiction.startsWith(`${j.country}-`);
}
