/**
 * The source interface. A source fetches upstream data and normalizes it into the internal model
 * (src/model); workers validate what it returns before anything is written.
 */
import type { Dropped } from './quality/dropped.js';
import type { EventsData, FxData, League, LeagueData, MetricsData } from '../model/index.js';

export interface FetchContext {
  /** The clock, passed in so sources (the simulator above all) are deterministic for tests. */
  now: Date;
  signal?: AbortSignal;
  /**
   * Where a source reports items it left out (a 404 slug, a malformed market, a failed match
   * guard); the refresh job keeps them in the snapshot's meta. Optional: tools need not collect.
   */
  dropped?: Dropped[];
}

export interface EventsSource {
  readonly name: string;
  fetchEvents(ctx: FetchContext): Promise<EventsData>;
}

export interface SportsbookSource {
  readonly name: string;
  fetchLeague(league: League, ctx: FetchContext): Promise<LeagueData>;
}

export interface MetricsSource {
  readonly name: string;
  fetchMetrics(ctx: FetchContext): Promise<MetricsData>;
}

export interface FxSource {
  readonly name: string;
  fetchRates(ctx: FetchContext): Promise<FxData>;
}
