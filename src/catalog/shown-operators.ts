/**
 * The catalog as one country's visitors may see it: operators not allowed there are absent, and
 * each operator's offer is the one for that country (none where inducements are banned or no offer
 * names it). Widget builders get only this view, so none of them can list a non-compliant operator.
 */
import { COMPLIANCE } from './compliance.js';
import type { Offer, Operator } from './operator-schema.js';
import { operatorById } from './operators.js';
import { offerFor } from './promotion-policy.js';

export interface ShownOperators {
  /** ISO 3166-1 alpha-2, or ZZ (unknown: only operators allowed everywhere). */
  country: string;
  /** The operator if it may be shown in `country`, else undefined (as for an unknown id). */
  operatorById(id: string): Operator | undefined;
  /** The offer `country`'s visitors may be shown for an operator, if any. */
  offerFor(id: string): Offer | undefined;
}

/** The view of `lookup` (the catalog by default) for `country`. */
export function shownOperators(
  country: string,
  lookup: (id: string) => Operator | undefined = operatorById,
  isAllowed: (operatorId: string, country: string) => boolean = COMPLIANCE.isAllowed,
): ShownOperators {
  const shown = (id: string) => (isAllowed(id, country) ? lookup(id) : undefined);
  return {
    country,
    operatorById: shown,
    offerFor: (id) => {
      const op = shown(id);
      return op && offerFor(op, country);
    },
  };
}
