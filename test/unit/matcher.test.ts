/** The matcher over the two recorded listings of early March 2026 (same project, overlapping). */
import { describe, expect, it } from 'vitest';
import type { VenueMarket } from '../../src/model/index.js';
import { deadlineOf, statedDeadlines } from '../../src/domain/matching/dates.js';
import { proposeMatches } from '../../src/domain/matching/match.js';
import { numericTokens, tokens } from '../../src/domain/matching/text.js';
import { normalizeKalshiEvents } from '../../src/sources/kalshi/normalize.js';
import { normalizeGammaEvents } from '../../src/sources/polymarket/normalize.js';
import { recorded } from '../support/upstream-replay.js';

const kalshi = normalizeKalshiEvents(recorded().kalshiEvents).markets;
const poly = normalizeGammaEvents(recorded().gammaEvents.slice(0, 2)).markets;

describe('proposeMatches over the recorded listings', () => {
  const proposals = proposeMatches(kalshi, poly);

  it('proposes the true pair with high confidence and notes the rule difference', () => {
    const high = proposals.filter((p) => p.band === 'high');
    expect(high.map((p) => [p.kalshi.id, p.polymarket.id])).toEqual([
      ['KXKHAMENEIOUT-AKHA-26MAR01', 'khamenei-out-as-supreme-leader-of-iran-by-february-28'],
    ]);
    const [pair] = high;
    expect(pair!.confidence).toBeGreaterThanOrEqual(0.75);
    // "before March 1, 2026" and "by February 28" are the same deadline
    expect(pair!.flags.datesDiffer).toBe(false);
    expect(pair!.flags.possibleInversion).toBe(false);
    // Kalshi settles a death at the last traded price; Polymarket does not say so
    expect(pair!.flags.rulesDiffer).toBe(true);
    expect(pair!.reasons.join(' ')).toMatch(/death/);
  });

  it('rejects the look-alikes whose dates differ, whatever their titles', () => {
    const lookAlikes = proposals.filter(
      (p) => p.kalshi.id.startsWith('KXKHAMENEIOUT') && p.kalshi.id !== 'KXKHAMENEIOUT-AKHA-26MAR01',
    );
    expect(lookAlikes.map((p) => p.kalshi.id).sort()).toEqual([
      'KXKHAMENEIOUT-AKHA-26APR01',
      'KXKHAMENEIOUT-AKHA-26FEB01',
      'KXKHAMENEIOUT-AKHA-26JUL01',
      'KXKHAMENEIOUT-AKHA-26SEP01',
    ]);
    for (const p of lookAlikes) {
      expect(p.band).toBe('rejected');
      expect(p.flags.datesDiffer).toBe(true);
    }
    // No other pair reaches medium: the venues' other Iran markets are different questions.
    expect(proposals.filter((p) => p.band === 'medium')).toEqual([]);
  });

  it('rejects a pair whose outcomes differ and flags one phrased the other way round', () => {
    const base: VenueMarket = {
      venue: 'kalshi',
      id: 'KXIRANDEMOCRACY-27MAR01-T6',
      eventId: 'E',
      title: "Will Iran's score in the EIU Democracy Index be at least 6 in the 2026 edition?",
      open: true,
      volume24hUsd: 0,
      openInterestUsd: 0,
      liquidityUsd: 0,
      closesAt: '2027-03-01T14:59:00.000Z',
      url: 'https://kalshi.com/events/E',
    };
    const seven: VenueMarket = {
      ...base,
      venue: 'polymarket',
      id: 'iran-democracy-index-7',
      title: "Will Iran's EIU Democracy Index score be at least 7 in the 2026 edition?",
    };
    const notSix: VenueMarket = {
      ...base,
      venue: 'polymarket',
      id: 'iran-not-6',
      title: "Will Iran's EIU Democracy Index score not be at least 6 in the 2026 edition?",
    };
    const [diff] = proposeMatches([base], [seven]);
    expect(diff).toMatchObject({ band: 'rejected', flags: { outcomesDiffer: true } });
    const [inv] = proposeMatches([base], [notSix]);
    expect(inv!.flags.possibleInversion).toBe(true);
    expect(inv!.band).not.toBe('rejected');
  });
});

describe('look-alikes that differ in one word', () => {
  const market = (venue: VenueMarket['venue'], title: string): VenueMarket => ({
    venue,
    id: `${venue}-${title.length}`,
    eventId: 'E',
    title,
    open: true,
    volume24hUsd: 0,
    openInterestUsd: null,
    liquidityUsd: null,
    closesAt: '2026-12-31T23:59:00.000Z',
    url: 'https://example.com/m',
  });

  it('rejects "reach $150,000 by Dec 31" against "above $150k on Dec 31", and pairs the same measure', () => {
    const [touch] = proposeMatches(
      [market('kalshi', 'Will Bitcoin reach $150,000 by Dec 31, 2026?')],
      [market('polymarket', 'Bitcoin above $150k on Dec 31, 2026?')],
    );
    expect(touch).toMatchObject({
      band: 'rejected',
      flags: { termsDiffer: true, outcomesDiffer: false, datesDiffer: false },
    });
    expect(touch!.reasons.join(' ')).toMatch(/touched at any time vs at one moment/);
    const [same] = proposeMatches(
      [market('kalshi', 'Will Bitcoin be above $150,000 on Dec 31, 2026?')],
      [market('polymarket', 'Bitcoin above $150k on Dec 31, 2026?')],
    );
    expect(same!.flags).toMatchObject({ termsDiffer: false, outcomesDiffer: false });
    expect(same!.band).not.toBe('rejected');
  });

  it('rejects House vs Senate and nominee vs winner', () => {
    const [chamber] = proposeMatches(
      [market('kalshi', 'Will Democrats win the House in 2026?')],
      [market('polymarket', 'Will Democrats win the Senate in 2026?')],
      { minTextScore: 0 },
    );
    expect(chamber).toMatchObject({ band: 'rejected', flags: { termsDiffer: true } });
    const [stage] = proposeMatches(
      [market('kalshi', 'Will Gavin Newsom be the Democratic presidential nominee in 2028?')],
      [market('polymarket', 'Will Gavin Newsom win the presidential election in 2028?')],
      { minTextScore: 0 },
    );
    expect(stage).toMatchObject({ band: 'rejected', flags: { termsDiffer: true } });
  });

  // Held out: written for this test, not tuned against; each pair is the same question but for one
  // word or number that makes it another contract. None may be proposed at medium or high.
  const LOOK_ALIKES: ReadonlyArray<readonly [string, string]> = [
    ['Will the Fed cut rates at its March 2026 meeting?', 'Will the Fed hike rates at its March 2026 meeting?'],
    ['Will the Fed cut interest rates in June 2026?', 'Will the Fed hold interest rates in June 2026?'],
    ['Will the ECB raise its deposit rate in April 2026?', 'Will the ECB lower its deposit rate in April 2026?'],
    ['Will Bitcoin close above $100,000 on March 31, 2026?', 'Will Bitcoin close below $100,000 on March 31, 2026?'],
    ['Will oil prices rise above $100 by June 30, 2026?', 'Will oil prices fall below $100 by June 30, 2026?'],
    ['Will US unemployment increase in March 2026?', 'Will US unemployment decrease in March 2026?'],
    [
      'Will a Democrat win the 2026 Pennsylvania Senate race?',
      'Will a Republican win the 2026 Pennsylvania Senate race?',
    ],
    ['Will the Democratic nominee win Ohio in 2028?', 'Will the Republican nominee win Ohio in 2028?'],
    ['Will Bitcoin reach $150,000 by December 31, 2026?', 'Will Ethereum reach $150,000 by December 31, 2026?'],
    ['Will Solana hit $500 by December 31, 2026?', 'Will XRP hit $500 by December 31, 2026?'],
    ['Will Republicans keep the House in 2026?', 'Will Republicans keep the Senate in 2026?'],
    [
      'Will Khamenei be out as Supreme Leader by March 31, 2026?',
      'Will Khamenei be out as Supreme Leader by June 30, 2026?',
    ],
    ['Will US GDP growth be at least 3% in Q1 2026?', 'Will US GDP growth be at least 2% in Q1 2026?'],
    ['Will gold be above $3,000 on June 30, 2026?', 'Will gold be above $3,500 on June 30, 2026?'],
  ];

  it('proposes none of a held-out set of look-alikes at medium or high confidence', () => {
    for (const [k, p] of LOOK_ALIKES) {
      const [pair] = proposeMatches([market('kalshi', k)], [market('polymarket', p)], { minTextScore: 0 });
      expect(pair!.band, `${k} / ${p}: ${pair!.reasons.join('; ')}`).toBe('rejected');
    }
    // The same questions paired with themselves (as another venue words them) are proposed: the
    // rejections come from the one differing word, not from a matcher that proposes nothing.
    for (const [k] of LOOK_ALIKES) {
      const [pair] = proposeMatches(
        [market('kalshi', k)],
        [market('polymarket', k.replace(/^Will /, '').replace('?', ' (yes/no)?'))],
        { minTextScore: 0 },
      );
      expect(['high', 'medium'], `${k}: ${pair!.reasons.join('; ')}`).toContain(pair!.band);
    }
  });

  it('reads "$150,000", "$150k" and "150 thousand" as one amount', () => {
    expect(numericTokens('above $150,000')).toEqual(['150000']);
    expect(numericTokens('above $150k')).toEqual(['150000']);
    expect(numericTokens('150 thousand or more')).toEqual(['150000']);
    expect(numericTokens('$1.5M raised')).toEqual(['1500000']);
    expect(numericTokens('at least 6 in the 2026 edition')).toEqual(['6']);
  });
});

describe('matching helpers', () => {
  it('reads deadlines: "by X" is the end of day X, "before X" its start', () => {
    expect(statedDeadlines('by February 28?', 2026)).toEqual([Date.UTC(2026, 2, 1)]);
    expect(statedDeadlines('Before March 1, 2026', 2026)).toEqual([Date.UTC(2026, 2, 1)]);
    expect(statedDeadlines('Before 2027', 2026)).toEqual([Date.UTC(2027, 0, 1)]);
    expect(deadlineOf(['Before April'], '2026-04-01T14:00:00Z')).toEqual({ at: Date.UTC(2026, 3, 1), from: 'text' });
    expect(deadlineOf([undefined, 'No date here'], '2026-04-01T14:00:00Z')).toEqual({
      at: Date.parse('2026-04-01T14:00:00Z'),
      from: 'close',
    });
  });

  it('normalizes titles to content tokens, folding venue phrasings together', () => {
    expect(tokens('Will Ali Khamenei leave office before 2026-03-01T15:00:00.000Z?')).toEqual([
      'ali',
      'khamenei',
      'out',
    ]);
    expect(tokens('Khamenei out as Supreme Leader of Iran by February 28?')).toEqual([
      'khamenei',
      'out',
      'supreme',
      'leader',
      'iran',
    ]);
  });
});
