/**
 * The catalog as one jurisdiction's visitors may see it: an operator appears on a surface (a
 * contract category, or `all` for a widget that presents the operator as a whole) only where the
 * compliance rules allow it for that surface and no suspension withdraws it; each operator's offer is
 * the one for that jurisdiction (none where inducements are banned or no offer names it). Widget
 * builders get only this view, so none of them can list a non-compliant operator.
 */
import { LRUCache } from 'lru-cache';
import type { Category } from '../model/index.js';
import { jurisdictionOf } from '../model/jurisdiction.js';
import type { Disclosure } from './compliance/rules.js';
import { CATEGORIES } from './compliance/rules.js';
import { complianceState, type ComplianceState } from './compliance/state.js';
import { suspends } from './compliance/suspensions.js';
import type { Offer, Operator } from './operator-schema.js';
import { operatorById } from './operators.js';
import { offerFor } from './promotion-policy.js';

/** A contract category, or `all`: every category (the broad widget presents an operator as a whole). */
export type Surface = Category | 'all';

export interface ShownOperators {
  /** The jurisdiction code the view is for: "US-NJ", "GB", ZZ (unknown: nothing that takes stakes). */
  jurisdiction: string;
  /** Its country (ISO 3166-1 alpha-2), or ZZ. */
  country: string;
  /** Its subdivision (ISO 3166-2) where licensing is regional and the region is known, else null. */
  region: string | null;
  /** The operator if it may be shown there on `surface` (on every category for `all`), else undefined (as for an unknown id). */
  operatorOn(id: string, surface: Surface): Operator | undefined;
  /** The offer visitors there may be shown for an operator shown there, if any. */
  offerFor(id: string): Offer | undefined;
  /**
   * The disclosures a widget that shows `ids` on `surface` carries there (defined wherever one may be
   * shown): the minimum age is the strictest of theirs.
   */
  disclosureFor(ids: readonly string[], surface: Surface): Disclosure | undefined;
}

/** Whether `operatorId` may be shown for contracts of `category` to visitors in `jurisdiction`. */
export type IsShown = (operatorId: string, jurisdiction: string, category: Category) => boolean;

/** What the rules and the suspensions of `state` (this process's by default) say. */
export function isShown(
  operatorId: string,
  jurisdiction: string,
  category: Category,
  state: ComplianceState = complianceState(),
): boolean {
  if (!state.rules.verdict(operatorId, jurisdiction, category).shown) return false;
  const j = jurisdictionOf(jurisdiction);
  return !state.suspensions.some((s) => suspends(s, operatorId, j, category));
}

const categoriesOf = (surface: Surface): readonly Category[] => (surface === 'all' ? CATEGORIES : [surface]);

export interface ViewOptions {
  /** The operators by id: the catalog by default. */
  lookup?: (id: string) => Operator | undefined;
  /** The compliance to follow: this process's by default. */
  state?: ComplianceState;
  /** Who is shown where: what `state` says by default (a test may show everyone). */
  shown?: IsShown;
}

/** The view of the catalog for `jurisdiction` under this process's compliance, or as `opts` say. */
export function shownOperators(jurisdiction: string, opts: ViewOptions = {}): ShownOperators {
  const { country, region } = jurisdictionOf(jurisdiction);
  const { lookup = operatorById, state = complianceState() } = opts;
  const shown = opts.shown ?? ((id: string, j: string, c: Category) => isShown(id, j, c, state));
  const { rules } = state;
  const disclosure = rules.disclosureFor(jurisdiction);
  // Surface → operator id → the operator, or null where not shown: each answer worked out once.
  const answers = new Map<Surface, Map<string, Operator | null>>();
  const operatorOn = (id: string, surface: Surface): Operator | undefined => {
    let bySurface = answers.get(surface);
    if (!bySurface) answers.set(surface, (bySurface = new Map()));
    let op = bySurface.get(id);
    if (op === undefined)
      bySurface.set(
        id,
        (op = categoriesOf(surface).every((c) => shown(id, jurisdiction, c)) ? (lookup(id) ?? null) : null),
      );
    return op ?? undefined;
  };
  const shownSomewhere = (id: string) => CATEGORIES.some((c) => operatorOn(id, c) !== undefined);
  /** The operator's own minimum age on `surface` where its rule says one, else the jurisdiction's. */
  const ageOn = (id: string, surface: Surface, base: number) =>
    Math.max(
      ...categoriesOf(surface).map((c) => {
        const v = rules.verdict(id, jurisdiction, c);
        return v.shown && v.allow.min_age !== undefined ? v.allow.min_age : base;
      }),
    );
  return {
    jurisdiction,
    country,
    region,
    operatorOn,
    offerFor: (id) => {
      const op = shownSomewhere(id) ? lookup(id) : undefined;
      return op && offerFor(op, jurisdiction, rules);
    },
    disclosureFor: (ids, surface) =>
      disclosure && ids.length > 0
        ? { ...disclosure, minAge: Math.max(...ids.map((id) => ageOn(id, surface, disclosure.minAge))) }
        : disclosure,
  };
}

interface View {
  view: ShownOperators;
  /** The compliance version it was made under: a view of an older one is made again. */
  version: number;
}

// Bounded well above the jurisdictions there are (about 314), against made-up codes.
const views = new LRUCache<string, View>({ max: 4_096 });

/**
 * `shownOperators(jurisdiction)` of the catalog under this process's compliance, made once per
 * jurisdiction and compliance version (widget builds and history reads ask often; a suspension or
 * new rules make every jurisdiction's view again).
 */
export function catalogView(jurisdiction: string): ShownOperators {
  const version = complianceState().version;
  const hit = views.get(jurisdiction);
  if (hit !== undefined && hit.version === version) return hit.view;
  const view = shownOperators(jurisdiction);
  views.set(jurisdiction, { view, version });
  return view;
}
