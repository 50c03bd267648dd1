import { describe, expect, it } from 'vitest';
import { convertUsd, currencyForCountry, usdRate } from '../../src/domain/fx.js';
import { localeForJurisdiction, negotiateLocale } from '../../src/domain/locale.js';
import { formatMoneyCompact } from '../../src/domain/money.js';

describe('locale', () => {
  it('follows the country, English by default', () => {
    expect(['ES', 'MX', 'AR'].map(localeForJurisdiction)).toEqual(['es', 'es', 'es']);
    expect(['DE', 'AT', 'CH'].map(localeForJurisdiction)).toEqual(['de', 'de', 'de']);
    expect(['FR', 'BE'].map(localeForJurisdiction)).toEqual(['fr', 'fr']);
    expect(['BR', 'PT'].map(localeForJurisdiction)).toEqual(['pt', 'pt']);
    expect(['US', 'GB', 'JP', 'ZZ', 'NL'].map(localeForJurisdiction)).toEqual(['en', 'en', 'en', 'en', 'en']);
    // A subdivision reads its own language where it differs, else its country's.
    expect(['CA-QC', 'CA-ON', 'US-NJ'].map(localeForJurisdiction)).toEqual(['fr', 'en', 'en']);
  });

  it('Accept-Language overrides when it names a catalog locale, by quality', () => {
    expect(negotiateLocale('de-AT,de;q=0.9,en;q=0.8')).toBe('de');
    expect(negotiateLocale('ja, fr;q=0.5, es;q=0.7')).toBe('es');
    expect(negotiateLocale('ja, zh-CN;q=0.9')).toBeUndefined();
    expect(negotiateLocale('*')).toBeUndefined();
    expect(negotiateLocale('pt-BR;q=0, en;q=0.1')).toBe('en');
    expect(negotiateLocale('')).toBeUndefined();
    expect(negotiateLocale(undefined)).toBeUndefined();
    expect(negotiateLocale('fr;q=abc, de')).toBe('de');
  });
});

describe('currency', () => {
  const fx = { asOfDate: '2026-11-20', rates: { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 151 } };

  it('defaults to the country currency when supported, else USD', () => {
    expect(currencyForCountry('DE')).toBe('EUR');
    expect(currencyForCountry('BG')).toBe('EUR');
    expect(currencyForCountry('GB')).toBe('GBP');
    expect(currencyForCountry('JP')).toBe('JPY');
    expect(currencyForCountry('BR')).toBe('BRL');
    expect(currencyForCountry('CH')).toBe('CHF');
    expect(currencyForCountry('SE')).toBe('USD');
    expect(currencyForCountry('ZZ')).toBe('USD');
  });

  it('converts USD with the reference rates and formats money strings', () => {
    expect(usdRate('USD', undefined)).toBe(1);
    expect(usdRate('EUR', fx)).toBe(0.92);
    expect(usdRate('CAD', fx)).toBeUndefined();
    expect(usdRate('EUR', undefined)).toBeUndefined();
    expect(formatMoneyCompact(convertUsd(2_600_000, 0.92), 'EUR')).toBe('€2.4M');
    expect(formatMoneyCompact(convertUsd(1_075_949.37, 0.79), 'GBP')).toBe('£850K');
    expect(formatMoneyCompact(convertUsd(100, 151), 'JPY')).toBe('¥15.1K');
    expect(formatMoneyCompact(convertUsd(5, 0.92), 'EUR')).toBe('€4.60');
  });
});
