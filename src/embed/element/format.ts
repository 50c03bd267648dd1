/**
 * Numbers as the widget's locale writes them. The API's strings are en-US ("$579.0M", "62.0%",
 * "+3.5", "x1.85") for every client; the embed re-reads the figures and formats them with `Intl`
 * ("579,0 Mio. $" in German). With no locale, the browser's own is used.
 */

/** The money symbols of docs/contract.md and their ISO 4217 codes. */
const CURRENCIES: Readonly<Record<string, string>> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  CA$: 'CAD',
  A$: 'AUD',
  R$: 'BRL',
  MX$: 'MXN',
  '¥': 'JPY',
  'CHF ': 'CHF',
  '₹': 'INR',
};
const MONEY = /^(-?)(CA\$|A\$|R\$|MX\$|CHF |[$€£¥₹])([\d,]+(?:\.\d+)?)([KMB]?)$/;
const SCALE: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6, B: 1e9 };
/** A figure inside a text: digits with en-US group commas and a decimal point. */
const FIGURE = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?/g;

const cache = new Map<string, Intl.NumberFormat>();
function nf(locale: string | undefined, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(opts)}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale, opts)));
  return f;
}

/** Digits after the point in an en-US figure ("1.50" → 2). */
const decimals = (figure: string) => (figure.split('.')[1] ?? '').length;

/**
 * One display string of the API in `locale`: a money string becomes an `Intl` currency (compact
 * when the API abbreviated it with K/M/B), and every other figure keeps its precision and
 * everything around it (signs, %, ¢, x, "/5", fractions). Unrecognised text is returned unchanged.
 */
export function localNumber(text: string, locale: string | undefined): string {
  const money = MONEY.exec(text);
  if (money) {
    const [, minus, symbol, figure, suffix] = money as unknown as [string, string, string, string, string];
    const value = Number(figure.replace(/,/g, '')) * SCALE[suffix]! * (minus ? -1 : 1);
    const digits = decimals(figure);
    return nf(locale, {
      style: 'currency',
      currency: CURRENCIES[symbol]!,
      ...(suffix
        ? { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: digits }
        : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    }).format(value);
  }
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(text);
  if (pct) {
    const digits = decimals(pct[1]!);
    return nf(locale, { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
      Number(pct[1]) / 100,
    );
  }
  // A signed money difference ("+$12.50"): the sign stays in front.
  const signed = /^([+-])(\$.*)$/.exec(text);
  if (signed) return signed[1] + localNumber(signed[2]!, locale);
  return text.replace(FIGURE, (figure) => {
    const digits = decimals(figure);
    // Grouped only where the API grouped: "+1200" American odds stay one figure.
    return nf(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: figure.includes(','),
    }).format(Number(figure.replace(/,/g, '')));
  });
}
