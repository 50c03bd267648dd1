/** Reading the click id a click's redirect carries, as an operator's site reads it. */
import { operatorSites } from '../../src/catalog/operator-sites.js';
import { operatorById } from '../../src/catalog/operators.js';
import { clickIdParam } from '../../src/tracking/click-links.js';

/**
 * The click id in `location` (a /v1/click redirect) under the parameter the catalog (the default
 * site) or the compliance rules (a licensed site) name for the link's operator and jurisdiction;
 * null when it carries none.
 */
export function clickIdOf(link: URL, location: string): string | null {
  const param = clickIdParam(
    operatorSites(operatorById(link.searchParams.get('o')!)!),
    link.searchParams.get('c') ?? undefined,
  );
  return param ? new URL(location).searchParams.get(param) : null;
}
