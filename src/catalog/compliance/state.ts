/**
 * The compliance an API process applies now: the rules it holds (the bundled file, or a newer one a
 * compliance officer published) and the active suspensions. Changed only by the follower
 * (follower.ts) and at start; every change raises `version`, so the catalog's views made before it
 * are remade (shown-operators.ts) and listeners drop the bodies built from them.
 */
import { BUNDLED_RULES } from './bundled.js';
import type { ComplianceRules } from './rules.js';
import { suspensionField, type Suspension } from './suspensions.js';

export interface ComplianceState {
  readonly rules: ComplianceRules;
  /** Active suspensions, in a stable order (by operator, jurisdiction, surface). */
  readonly suspensions: readonly Suspension[];
  /** Raised by every change this process applies. */
  readonly version: number;
}

let current: ComplianceState = { rules: BUNDLED_RULES, suspensions: [], version: 0 };
const listeners = new Set<(state: ComplianceState, rulesChanged: boolean) => void>();

/** What this process applies now. */
export function complianceState(): ComplianceState {
  return current;
}

const sameSuspensions = (a: readonly Suspension[], b: readonly Suspension[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Applies new rules and/or suspensions; a change that changes nothing (the same rules object, equal
 * suspensions) is no change: nothing is rebuilt for a reload that found what was already applied.
 * @returns whether anything changed.
 */
export function applyCompliance(next: { rules?: ComplianceRules; suspensions?: readonly Suspension[] }): boolean {
  const rules = next.rules ?? current.rules;
  const suspensions = next.suspensions
    ? [...next.suspensions].sort((x, y) => suspensionField(x).localeCompare(suspensionField(y)))
    : current.suspensions;
  if (rules === current.rules && sameSuspensions(suspensions, current.suspensions)) return false;
  const rulesChanged = rules !== current.rules;
  current = { rules, suspensions, version: current.version + 1 };
  for (const listener of listeners) listener(current, rulesChanged);
  return true;
}

/** Calls `listener` after every change (`rulesChanged`: the rules, not only the suspensions); returns its removal. */
export function onComplianceChange(listener: (state: ComplianceState, rulesChanged: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
