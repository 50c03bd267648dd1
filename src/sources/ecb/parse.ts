/**
 * The ECB daily reference file (eurofxref-daily.xml) → FxData. The format is fixed and tiny:
 * one `<Cube time='YYYY-MM-DD'>` holding `<Cube currency='USD' rate='1.1252'/>` rows, rates per
 * 1 EUR. A small hand-written reader is enough (no XML dependency). We store units per 1 USD:
 * rate(X per USD) = rate(X per EUR) / rate(USD per EUR), and EUR = 1 / rate(USD per EUR).
 */
import { FxData } from '../../model/index.js';
import { UpstreamShapeError } from '../http/errors.js';
import type { Dropped } from '../quality/dropped.js';
import { QualityGateError } from '../quality/options.js';

/** Attributes of an XML start tag, single or double quoted. */
function attrs(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g))
    out[m[1] as string] = (m[2] ?? m[3]) as string;
  return out;
}

/** Per-EUR rates and their date, as the file states them, with every rate of a currency listed more than once. */
export function parseEcbDaily(xml: string): {
  date: string;
  perEur: Record<string, number>;
  repeated: Record<string, number[]>;
} {
  let date: string | undefined;
  const perEur: Record<string, number> = {};
  const repeated: Record<string, number[]> = {};
  for (const m of xml.matchAll(/<Cube\b([^>]*)\/?>/g)) {
    const a = attrs(m[1] ?? '');
    if (a.time !== undefined) {
      // The daily file has one dated cube; a history file would have many: keep the first (newest).
      if (date !== undefined) break;
      date = a.time;
    } else if (a.currency !== undefined && a.rate !== undefined && date !== undefined) {
      const rate = Number(a.rate);
      if (!/^[A-Z]{3}$/.test(a.currency) || !Number.isFinite(rate) || rate <= 0) continue;
      if (a.currency in perEur) repeated[a.currency] = [...(repeated[a.currency] ?? [perEur[a.currency]!]), rate];
      perEur[a.currency] = rate;
    }
  }
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new UpstreamShapeError('ecb', 'no dated <Cube time=...> in the reference file');
  return { date, perEur, repeated };
}

/**
 * Converts ECB per-EUR rates into FxData (units per 1 USD, USD = 1), validated. A currency listed
 * twice with one rate is one row sent twice (kept once, reported to `dropped`); with two rates the
 * fixing cannot be trusted whichever row we took, and is refused (the last good one stays).
 *
 * @throws QualityGateError for a currency listed with different rates
 */
export function ecbToFx(xml: string, dropped?: Dropped[]): FxData {
  const { date, perEur, repeated } = parseEcbDaily(xml);
  const conflicting = Object.entries(repeated).filter(([, rates]) => new Set(rates).size > 1);
  if (conflicting.length > 0)
    throw new QualityGateError(
      conflicting.map(
        ([code, rates]) =>
          `${code} listed ${rates.length} times with different rates (${rates.join(', ')}): fixing refused`,
      ),
    );
  for (const [code, rates] of Object.entries(repeated))
    dropped?.push({
      id: `ecb:${code}`,
      reason: `listed ${rates.length} times, identical: kept one`,
      class: 'duplicate',
    });
  const usdPerEur = perEur.USD;
  if (!usdPerEur) throw new UpstreamShapeError('ecb', 'the reference file has no USD rate');
  const rates: Record<string, number> = { USD: 1, EUR: round6(1 / usdPerEur) };
  for (const [code, rate] of Object.entries(perEur)) {
    if (code === 'USD') continue;
    rates[code] = round6(rate / usdPerEur);
  }
  return FxData.parse({ asOfDate: date, rates });
}

// Six significant digits, as the simulator's reference rates carry.
const round6 = (x: number) => Number(x.toPrecision(6));
