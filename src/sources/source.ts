/**
 * The source interface. A source fetches upstream data and normalizes it into the internal model
 * (src/model); workers validate what it returns before anything is written.
 */
import type { EventsData, FxData, League, LeagueData, MetricsData } from '../model/index.js';

export interface FetchContext {
  /** The clock, passed in so sources (the simulator above all) are deterministic for tests. */
  now: Date;
  signal?: AbortSignal;
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
