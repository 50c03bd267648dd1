/**
 * Operator metrics derived from the same simulated data the other snapshots carry: a prediction
 * venue's volume is the sum of its quotes' volume per category (plus its game contracts under
 * sports); a sportsbook's is a seeded daily handle under sports. Everything drifts with the clock.
 */
import { OPERATORS } from '../../catalog/operators.js';
import type { Category, EventsData, LeagueData, MetricsData, OperatorMetrics } from '../../model/index.js';
import { drift, epochSec, VOLUME_OCTAVES } from './drift.js';
import { createRng, key } from './rng.js';

/** Typical daily handle of each sportsbook, USD (order of magnitude of public US figures). */
const DAILY_HANDLE_USD: Record<string, number> = {
  draftkings: 140e6,
  fanduel: 150e6,
  betmgm: 45e6,
  caesars: 35e6,
  bet365: 60e6,
  betfair: 80e6,
  fanatics: 20e6,
};

/** Typical volume of one game's winner/spread/total contracts on a prediction venue, USD. */
const GAME_CONTRACT_USD: Record<string, number> = { NFL: 2.5e6, NBA: 600e3, NCAAB: 150e3, EPL: 120e3 };
const CONTRACT_SHARE: Record<string, number> = { kalshi: 1, polymarket: 0.6 };

/** Resting order-book depth as a share of daily volume. */
const DEPTH: Record<string, number> = { kalshi: 0.3, polymarket: 0.45, forecastex: 0.6, limitless: 0.25 };

/** A seeded size factor with a slow wander: exp(normal x sd + drift). */
function wander(seed: number, tSec: number, sd: number, ...names: string[]): number {
  const k = key(seed, ...names);
  return Math.exp(createRng(k).normal() * sd + drift(k, tSec, VOLUME_OCTAVES) * 0.5);
}

/** Metrics for every catalog operator at a clock, consistent with the given events and leagues. */
export function buildMetrics(seed: number, now: Date, events: EventsData, leagues: readonly LeagueData[]): MetricsData {
  const tSec = epochSec(now);
  const operators = OPERATORS.map((op): OperatorMetrics => {
    const byCat: Partial<Record<Category, number>> = {};
    const add = (c: Category, v: number): void => {
      byCat[c] = (byCat[c] ?? 0) + v;
    };
    let openInterest = 0;
    let liquidity = 0;
    let active = 0;

    for (const ev of events.events) {
      // Long-dated markets carry open interest many times their daily volume.
      const days = Math.max(0, (Date.parse(ev.closesAt) - now.getTime()) / 86_400_000);
      const oiRatio = Math.min(12, 1.5 + days / 20);
      let listed = false;
      for (const o of ev.outcomes) {
        for (const q of o.quotes) {
          if (q.operatorId !== op.id) continue;
          listed = true;
          // The simulator always states its volumes.
          const volume = q.volume24hUsd ?? 0;
          add(ev.category, volume);
          openInterest += volume * oiRatio;
          liquidity += volume * (DEPTH[op.id] ?? 0.3);
        }
      }
      if (listed) active++;
    }

    for (const lg of leagues) {
      for (const m of lg.upcoming) {
        if (!m.books.some((b) => b.operatorId === op.id)) continue;
        active++;
        const share = CONTRACT_SHARE[op.id];
        if (share !== undefined) {
          const v = (GAME_CONTRACT_USD[lg.league] ?? 1e5) * share * wander(seed, tSec, 0.5, 'game-volume', op.id, m.id);
          add('sports', v);
          openInterest += v * 0.8;
          liquidity += v * (DEPTH[op.id] ?? 0.3);
        }
      }
    }

    if (op.kind === 'sportsbook') {
      const handle = (DAILY_HANDLE_USD[op.id] ?? 30e6) * wander(seed, tSec, 0.15, 'handle', op.id);
      add('sports', handle);
      // Pending bets (futures, parlays) outstanding, and the book's posted limits as its depth.
      openInterest += handle * wander(seed, tSec, 0.2, 'pending', op.id) * 1.2;
      liquidity += handle * 0.08;
    }

    const volumeByCategoryUsd: Partial<Record<Category, number>> = {};
    let volume = 0;
    for (const [c, v] of Object.entries(byCat) as [Category, number][]) {
      volumeByCategoryUsd[c] = Math.round(v);
      volume += Math.round(v);
    }
    return {
      operatorId: op.id,
      volume24hUsd: volume,
      openInterestUsd: Math.round(openInterest),
      liquidityUsd: Math.round(liquidity),
      activeEvents: active,
      volumeByCategoryUsd,
    };
  });
  return { operators };
}
