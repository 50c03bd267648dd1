/** Host names against an operator's web domains (click landings, the rules' destinations). */

/** True when `host` is one of `domains` or a subdomain of one ("evil-kalshi.com" is not "kalshi.com"). */
export function withinDomains(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase();
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}
