/**
 * An operator's sites as a click needs them: its default affiliate URL and domains from the
 * catalog, its sub-id parameters (the click id's among them), and the sites licensed in particular
 * jurisdictions from the compliance rules' `destinations`, each with its own click id parameter (so
 * a published rules file can correct a destination without a release). Made once per operator and
 * rules document.
 */
import type { ComplianceRules } from './compliance/rules.js';
import { complianceState } from './compliance/state.js';
import type { Operator } from './operator-schema.js';

/** A site a click may land on: its affiliate URL, the domains a landing page may be on, and its click id parameter. */
export interface Site {
  affiliateUrl: string;
  webDomains: readonly string[];
  clickIdParam?: string;
}

/**
 * An operator's sites: the default one, and those licensed in particular jurisdictions. The latter
 * are required so that a catalog Operator, which has none, is never passed for them by mistake.
 */
export interface OperatorSites {
  affiliateUrl: string;
  webDomains: readonly string[];
  subIdParams?: Operator['subIdParams'];
  /**
   * Sites licensed in particular jurisdictions, overriding the default there; each names the
   * parameter its affiliate programme reads the click id from (the default site's is `subIdParams.click`).
   */
  destinations: ReadonlyArray<Site & { jurisdictions: readonly string[]; clickIdParam: string }>;
}

const made = new WeakMap<ComplianceRules, Map<string, OperatorSites>>();

/** `op`'s sites under `rules` (this process's by default). */
export function operatorSites(op: Operator, rules: ComplianceRules = complianceState().rules): OperatorSites {
  let byId = made.get(rules);
  if (!byId) made.set(rules, (byId = new Map()));
  let sites = byId.get(op.id);
  if (!sites) {
    sites = {
      affiliateUrl: op.affiliateUrl,
      webDomains: op.webDomains,
      subIdParams: op.subIdParams,
      destinations: rules.destinations(op.id).map((d) => ({
        jurisdictions: d.jurisdictions,
        affiliateUrl: d.url,
        webDomains: d.web_domains,
        clickIdParam: d.click_id_param,
      })),
    };
    byId.set(op.id, sites);
  }
  return sites;
}
