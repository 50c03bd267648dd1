/** Live-market widget (docs/contract.md): one up/down contract window with every venue's prices. */
import { formatMoneyPrecise } from '../domain/money.js';
import type { LiveView } from '../live/engine.js';
import { probabilityAbove } from '../live/probability.js';
import { liveLeaders, modelQuote, type LiveVenue, type VenueQuote } from '../live/venues.js';
import type { WidgetContext } from './context.js';
import type { LiveMarketPayload } from './payload-schemas.js';

export interface LiveMarketOptions {
  refreshIntervalSeconds: number;
  /** No tick for this long: the market is stale and no prices are shown. */
  staleAfterMs: number;
  venues: readonly LiveVenue[];
  /** Quotes a source provides for this window, used instead of the model where present. */
  quotes?: ReadonlyMap<string, VenueQuote>;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const multiplier = (price: number) => `x${(1 / price).toFixed(2)}`;

/** Builds the payload for `view` at `nowMs`. Pure: the same inputs give the same payload. */
export function buildLiveMarketWidget(view: LiveView, nowMs: number, opts: LiveMarketOptions, ctx: WidgetContext): LiveMarketPayload {
  const { window: w, strike, spot, lastTickMs } = view;
  const secondsLeft = Math.max(0, Math.ceil((w.endMs - nowMs) / 1000));
  const stale = lastTickMs === undefined || nowMs - lastTickMs > opts.staleAfterMs;
  const status: LiveMarketPayload['market_status'] = stale ? 'stale' : strike === undefined ? 'awaiting_strike' : 'open';
  const strikeText = strike === undefined ? 'the opening price' : formatMoneyPrecise(strike, 'USD');

  let providers: LiveMarketPayload['providers_pool'] = [];
  if (status === 'open' && strike !== undefined && spot !== undefined) {
    const fairUp = probabilityAbove(spot, strike, (w.endMs - nowMs) / 1000, view.variance);
    const quotes = opts.venues
      .filter((v) => v.horizons.includes(view.horizon) && ctx.operatorById(v.operatorId))
      .map((v) => opts.quotes?.get(v.operatorId) ?? modelQuote(v, fairUp));
    const best = liveLeaders(quotes);
    providers = quotes.map((q) => {
      const op = ctx.operatorById(q.operatorId)!;
      return {
        operator_id: op.id,
        operator_name: op.name,
        is_best_odds: best.has(q.operatorId),
        live_metrics: {
          spot_difference: formatMoneyPrecise(spot - strike, 'USD', { signed: true }),
          target_price: formatMoneyPrecise(strike, 'USD'),
          multipliers: { payout_up: multiplier(q.up), payout_down: multiplier(q.down) },
        },
        incentives: {
          coupon_value: op.couponValue ?? '',
          cta_url: ctx.clickUrl({
            operatorId: op.id,
            widget: 'live-market',
            placement: `${view.asset}:${view.horizon}`,
            advertiserId: ctx.advertiserId,
            impressionId: ctx.impressionId,
            expiresAt: ctx.linkExpiresAt,
          }),
        },
      };
    });
  }

  return {
    widget_class: 'live-market',
    refresh_interval_seconds: opts.refreshIntervalSeconds,
    underlying_asset: view.asset,
    active_micro_question: `Will ${view.asset} be at or above ${strikeText} at ${hhmm(w.endMs)} UTC?`,
    expiration_horizon: `${view.horizon} minutes`,
    providers_pool: providers,
    market_status: status,
    window_start: new Date(w.startMs).toISOString(),
    expires_at: new Date(w.endMs).toISOString(),
    seconds_left: secondsLeft,
    spot_price: spot === undefined ? null : formatMoneyPrecise(spot, 'USD'),
    timestamp: new Date(Math.max(lastTickMs ?? w.startMs, w.startMs)).toISOString(),
  };
}
