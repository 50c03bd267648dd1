/**
 * The catalog as one jurisdiction's visitors may see it: operators not allowed there are absent,
 * each operator's offer is the one for that jurisdiction (none where inducements are banned or no
 * offer names it), and each operator's site is the one licensed there. Widget builders get only this
 * view, so none of them can list a non-compliant operator or link to an unlicensed site.
 */
import { LRUCache } from 'lru-cache';
import { jurisdictionOf } from '../model/jurisdiction.js';
import { COMPLIANCE } from './compliance.js';
import { disclosureFor, type Disclosure } from './disclosures.js';
import type { Offer, Operator } from './operator-schema.js';
import { operatorById } from './operators.js';
import { offerFor } from './promotion-policy.js';

export interface ShownOperators {
  /** The jurisdiction code the view is for: "US-NJ", "GB", ZZ (unknown: nothing that takes stakes). */
  jurisdiction: string;
  /** Its country (ISO 3166-1 alpha-2), or ZZ. */
  country: string;
  /** Its subdivision (ISO 3166-2) where licensing is regional and the region is known, else null. */
  region: string | null;
  /** The operator if it may be shown there, else undefined (as for an unknown id). */
  operatorById(id: string): Operator | undefined;
  /** The offer visitors there may be shown for an operator, if any. */
  offerFor(id: string): Offer | undefined;
  /** The disclosures a widget that shows an operator carries there (defined wherever one may be shown). */
  disclosure: Disclosure | undefined;
}

/** The view of `lookup` (the catalog by default) for `jurisdiction`. */
export function shownOperators(
  jurisdiction: string,
  lookup: (id: string) => Operator | undefined = operatorById,
  isAllowed: (operatorId: string, jurisdiction: string) => boolean = COMPLIANCE.isAllowed,
): ShownOperators {
  const { country, region } = jurisdictionOf(jurisdiction);
  const shown = (id: string) => (isAllowed(id, jurisdiction) ? lookup(id) : undefined);
  return {
    jurisdiction,
    country,
    region,
    operatorById: shown,
    offerFor: (id) => {
      const op = shown(id);
      return op && offerFor(op, jurisdiction);
    },
    disclosure: disclosureFor(jurisdiction),
  };
}

// The catalog and its rules are fixed for the process: a jurisdiction's view is the same every time.
// Bounded well above the jurisdictions there are (about 314), against made-up codes.
const views = new LRUCache<string, ShownOperators>({ max: 4_096 });

/** `shownOperators(jurisdiction)` of the catalog, made once per jurisdiction (widget builds and history reads ask often). */
export function catalogView(jurisdiction: string): ShownOperators {
  let view = views.get(jurisdiction);
  if (view === undefined) views.set(jurisdiction, (view = shownOperators(jurisdiction)));
  return view;
}
