/**
 * Proposes cross-venue pairs (Kalshi × Polymarket) for a person to review; nothing here is
 * published. A pair is scored on its titles (IDF-weighted token overlap, so a shared name such as
 * "Khamenei" counts more than a shared "Iran") and its deadline; a pair whose deadlines or
 * outcome numbers differ is rejected whatever its text score (the classic look-alike: same
 * question, different date), and one-sided negation is flagged as a possible YES/NO inversion.
 */
import type { VenueMarket } from '../../model/index.js';
import { contrastsBetween } from './contrasts.js';
import { deadlineOf } from './dates.js';
import { hasNegation, numericTokens, tokens } from './text.js';

export type Band = 'high' | 'medium' | 'low' | 'rejected';

export interface Proposal {
  kalshi: VenueMarket;
  polymarket: VenueMarket;
  /** 0..1. */
  confidence: number;
  band: Band;
  /** Why, in words a reviewer reads. */
  reasons: string[];
  flags: {
    datesDiffer: boolean;
    outcomesDiffer: boolean;
    possibleInversion: boolean;
    rulesDiffer: boolean;
    termsDiffer: boolean;
  };
}

export interface MatchOptions {
  /** Pairs whose text score is below this are not reported at all. */
  minTextScore?: number;
  /** Deadlines further apart than this are different contracts. */
  dateToleranceMs?: number;
}

const HOUR = 3_600_000;

/** Terms whose presence in one venue's rules and absence in the other's changes how it settles. */
const RULE_TERMS: ReadonlyArray<readonly [string, RegExp]> = [
  ['death', /\b(die|dies|died|death|dead)\b/i],
  ['detention', /\bdetain(ed)?\b/i],
  ['official announcement', /\bannounce(d|ment)?\b/i],
  ['credible reporting', /\bcredible report/i],
  ['last traded price settlement', /\blast trad(ed|e) price\b/i],
];

const side = (m: VenueMarket) => [m.outcomeLabel, m.title, m.eventTitle].filter(Boolean).join(' ');

/** Inverse document frequency over both listings. */
function idf(all: readonly string[][]): Map<string, number> {
  const df = new Map<string, number>();
  for (const toks of all) for (const t of new Set(toks)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = all.length;
  return new Map([...df].map(([t, d]) => [t, Math.log(1 + n / d)]));
}

/** Weighted overlap of two token sets: the mean of weighted Jaccard and weighted overlap coefficient. */
function textScore(a: ReadonlySet<string>, b: ReadonlySet<string>, w: ReadonlyMap<string, number>): number {
  const weight = (s: Iterable<string>) => [...s].reduce((x, t) => x + (w.get(t) ?? 1), 0);
  const inter = weight([...a].filter((t) => b.has(t)));
  const union = weight(new Set([...a, ...b]));
  const smaller = Math.min(weight(a), weight(b));
  if (union === 0 || smaller === 0) return 0;
  return (inter / union + inter / smaller) / 2;
}

/** Proposes candidate pairs, best first. */
export function proposeMatches(
  kalshi: readonly VenueMarket[],
  polymarket: readonly VenueMarket[],
  opts: MatchOptions = {},
): Proposal[] {
  const minText = opts.minTextScore ?? 0.35;
  const tolerance = opts.dateToleranceMs ?? 36 * HOUR;
  const kTok = kalshi.map((m) => new Set(tokens(side(m))));
  const pTok = polymarket.map((m) => new Set(tokens(side(m))));
  const weights = idf([...kTok, ...pTok].map((s) => [...s]));
  const out: Proposal[] = [];
  kalshi.forEach((k, i) => {
    polymarket.forEach((p, j) => {
      const text = textScore(kTok[i] as Set<string>, pTok[j] as Set<string>, weights);
      if (text < minText) return;
      const reasons = [`titles ${Math.round(text * 100)}% alike`];
      const dk = deadlineOf([k.outcomeLabel, k.title], k.closesAt);
      const dp = deadlineOf([p.outcomeLabel, p.title], p.closesAt);
      const gap = Math.abs(dk.at - dp.at);
      const unknown = dk.from === 'none' || dp.from === 'none';
      // A deadline read from a close time alone is weak evidence: venues close markets loosely.
      const strong = dk.from === 'text' && dp.from === 'text';
      const datesDiffer = !unknown && gap > (strong ? tolerance : 7 * 24 * HOUR);
      const dateScore = unknown ? 0.3 : datesDiffer ? 0 : strong ? 1 : 0.6;
      reasons.push(
        unknown
          ? 'no deadline on one side: compare the dates by hand'
          : datesDiffer
            ? `deadlines differ by ${Math.round(gap / HOUR / 24)} days (${new Date(dk.at).toISOString().slice(0, 10)} vs ${new Date(dp.at).toISOString().slice(0, 10)})`
            : `deadlines agree within ${Math.round(gap / HOUR)} h${strong ? '' : ' (one read from a close time)'}`,
      );
      const nk = numericTokens(`${k.outcomeLabel ?? ''} ${k.title}`);
      const np = numericTokens(`${p.outcomeLabel ?? ''} ${p.title}`);
      const outcomesDiffer = nk.length > 0 && np.length > 0 && nk.sort().join(',') !== np.sort().join(',');
      if (outcomesDiffer) reasons.push(`outcome numbers differ (${nk.join(', ')} vs ${np.join(', ')})`);
      // Look-alikes that differ in one word (reach vs above, House vs Senate, nominee vs winner).
      const contrasts = contrastsBetween(side(k), side(p));
      const termsDiffer = contrasts.length > 0;
      if (termsDiffer) reasons.push(`different contracts: ${contrasts.join('; ')}`);
      const possibleInversion = hasNegation(k.title) !== hasNegation(p.title);
      if (possibleInversion) reasons.push('one side is phrased negatively: check YES/NO inversion (invert: true)');
      const ruleDiffs = RULE_TERMS.filter(([, re]) => re.test(k.rules ?? '') !== re.test(p.rules ?? '')).map(
        ([name]) => name,
      );
      const rulesDiffer = ruleDiffs.length > 0;
      if (rulesDiffer) reasons.push(`resolution rules differ on: ${ruleDiffs.join(', ')}; write a resolutionNote`);
      const confidence = Math.round((0.6 * Math.min(1, text) + 0.4 * dateScore) * 1000) / 1000;
      const band: Band =
        datesDiffer || outcomesDiffer || termsDiffer
          ? 'rejected'
          : confidence >= 0.75
            ? 'high'
            : confidence >= 0.55
              ? 'medium'
              : 'low';
      out.push({
        kalshi: k,
        polymarket: p,
        confidence,
        band,
        reasons,
        flags: { datesDiffer, outcomesDiffer, possibleInversion, rulesDiffer, termsDiffer },
      });
    });
  });
  const rank: Record<Band, number> = { high: 0, medium: 1, low: 2, rejected: 3 };
  return out.sort((a, b) => rank[a.band] - rank[b.band] || b.confidence - a.confidence);
}
