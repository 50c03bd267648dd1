/**
 * What a widget that shows operators labels itself with. The per-jurisdiction disclosures (minimum
 * age, responsible-gambling message, help service, helpline) are rows of the compliance rules
 * (compliance/rules.json), resolved by compliance/rules.ts.
 */
import type { Locale } from '../model/index.js';

export type { Disclosure } from './compliance/rules.js';

/** "Advertisement" per widget language: widgets that show operators are advertising. */
export const AD_LABEL: Readonly<Record<Locale, string>> = {
  en: 'Advertisement',
  es: 'Publicidad',
  de: 'Werbung',
  fr: 'Publicité',
  pt: 'Publicidade',
};
