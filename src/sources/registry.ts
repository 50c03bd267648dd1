/** Picks the configured source for each data kind (`SOURCES`). */
import { ConfigError, type Config } from '../config.js';
import { createSimulator } from './simulator/index.js';
import type { EventsSource, FxSource, MetricsSource, SportsbookSource } from './source.js';

export interface Sources {
  events: EventsSource;
  sportsbook: SportsbookSource;
  metrics: MetricsSource;
  fx: FxSource;
}

/** @throws ConfigError for a source name this build does not have. */
export function createSources(config: Config): Sources {
  const simulator = createSimulator({ seed: config.simulatorSeed });
  const pick = <T>(kind: string, name: string, available: Record<string, T>): T => {
    const source = available[name];
    if (!source) throw new ConfigError(`invalid configuration:\n  SOURCES: no ${kind} source "${name}" (available: ${Object.keys(available).join(', ')})`);
    return source;
  };
  return {
    events: pick('events', config.sources.events, { simulator }),
    sportsbook: pick('sportsbook', config.sources.sportsbook, { simulator }),
    metrics: pick('metrics', config.sources.metrics, { simulator }),
    fx: pick('fx', config.sources.fx, { simulator }),
  };
}
