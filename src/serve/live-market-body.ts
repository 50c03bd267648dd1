/** The live-market widget's payload for a topic and a viewer, from the engine's current view. */
import type { Config } from '../config.js';
import type { LiveEngine } from '../live/engine.js';
import { LIVE_VENUES } from '../live/venues.js';
import { buildLiveMarketWidget } from '../widgets/live-market-widget.js';
import type { BuildLive } from './live-payloads.js';
import { widgetContext } from './widget-context.js';

export function liveMarketBuilder(config: Config, engine: LiveEngine): BuildLive {
  // The simulator models venues that publish no quote; real sources show only what venues quote.
  const modelMissingVenues = config.sources.quotes === 'simulator';
  return (asset, horizon, nowMs, country, advertiserId) =>
    buildLiveMarketWidget(
      engine.view(asset, horizon),
      nowMs,
      {
        refreshIntervalSeconds: config.live.refreshSeconds[horizon],
        staleAfterMs: config.live.staleAfterMs,
        venues: LIVE_VENUES,
        modelMissingVenues,
      },
      widgetContext(config, new Date(nowMs), advertiserId, undefined, country),
    );
}
