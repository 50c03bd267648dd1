/** Live-market widget (docs/contract.md): one up/down contract window with every venue's prices. */
import { afterFeePrice } from '../catalog/fee-schedules.js';
import { formatMoneyPrecise } from '../domain/money.js';
import type { LiveView } from '../live/engine.js';
import { quotesForWindow } from '../live/live-quotes.js';
import { probabilityAbove } from '../live/probability.js';
import { liveLeaders, modelQuote, type LiveVenue, type VenueQuote } from '../live/venues.js';
import { localeForJurisdiction } from '../domain/locale.js';
import type { WidgetContext } from './context.js';
import { jurisdictionFields } from './disclosures.js';
import type { LiveMarketPayload } from './payload-schemas.js';

export interface LiveMarketOptions {
  refreshIntervalSeconds: number;
  /** No tick for this long: the market is stale and no prices are shown. */
  staleAfterMs: number;
  venues: readonly LiveVenue[];
  /**
   * Whether a venue without a live quote for the window is priced by the model (the simulator).
   * With real sources it is left out: a price the venue never quoted is never shown under its name.
   */
  modelMissingVenues: boolean;
}

/** One venue's row before formatting: raw asks, the venue's own strike (null until it publishes one), its contract page if known, and its own time of the quote (null when modelled). */
interface VenuePrice {
  operatorId: string;
  up: number;
  down: number;
  strike: number | null;
  marketUrl?: string;
  updatedAt: string | null;
}

const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const multiplier = (price: number) => `x${(1 / price).toFixed(2)}`;
/** Whether a side pays back more than the stake as shown: x1.00 (or less) is no offer. */
const pays = (price: number) => Number((1 / price).toFixed(2)) > 1;

/**
 * Each listed venue's asks and strike for the window, in venue order. A venue's own live quote
 * wins, with its own strike, or none while it has published none (ours is never shown under its
 * name); a quote with null asks leaves the venue out; a venue with no quote is modelled (with the
 * window's strike) only when `modelMissingVenues`.
 */
function venuePrices(view: LiveView, nowMs: number, opts: LiveMarketOptions, ctx: WidgetContext): VenuePrice[] {
  const { window: w, strike, spot } = view;
  const live = quotesForWindow(view.quotes, w, nowMs);
  const fairUp =
    strike !== undefined && spot !== undefined
      ? probabilityAbove(spot, strike, (w.endMs - nowMs) / 1000, view.variance)
      : undefined;
  const out: VenuePrice[] = [];
  for (const v of opts.venues) {
    if (!v.horizons.includes(view.horizon) || !ctx.operatorOn(v.operatorId, 'crypto')) continue;
    const q = live.get(v.operatorId);
    if (q) {
      if (q.up !== null && q.down !== null)
        out.push({
          operatorId: v.operatorId,
          up: q.up,
          down: q.down,
          strike: q.strike,
          marketUrl: q.marketUrl,
          updatedAt: q.venueTs,
        });
    } else if (opts.modelMissingVenues && fairUp !== undefined && strike !== undefined) {
      const m = modelQuote(v, fairUp);
      out.push({ operatorId: m.operatorId, up: m.up, down: m.down, strike, updatedAt: null });
    }
  }
  return out;
}

/** Builds the payload for `view` at `nowMs`. Pure: the same inputs give the same payload. */
export function buildLiveMarketWidget(
  view: LiveView,
  nowMs: number,
  opts: LiveMarketOptions,
  ctx: WidgetContext,
): LiveMarketPayload {
  const { window: w, strike, spot, lastTickMs } = view;
  const secondsLeft = Math.max(0, Math.ceil((w.endMs - nowMs) / 1000));
  const stale = spot === undefined || lastTickMs === undefined || nowMs - lastTickMs > opts.staleAfterMs;
  const prices = stale ? [] : venuePrices(view, nowMs, opts, ctx);

  let status: LiveMarketPayload['market_status'];
  if (stale) status = 'stale';
  else if (strike !== undefined || prices.length > 0) status = 'open';
  else status = view.strikeStatus === 'missed' ? 'no_strike' : 'awaiting_strike';

  // Shown prices include the venue's taker fee, and best odds compare those (docs/design.md: after fees).
  // A side whose price after the fee is so close to 1 that it shows x1.00 (or reaches 1) would pay back
  // no more than the stake: such a venue is not offered.
  const offered = prices.filter(
    (p) => pays(afterFeePrice(p.operatorId, 'crypto', p.up)) && pays(afterFeePrice(p.operatorId, 'crypto', p.down)),
  );
  const quotes: VenueQuote[] = offered.map((p) => ({
    operatorId: p.operatorId,
    up: afterFeePrice(p.operatorId, 'crypto', p.up),
    down: afterFeePrice(p.operatorId, 'crypto', p.down),
  }));
  // Judged on the multipliers shown (two decimals): venues showing the same payouts are flagged alike.
  const shown = (price: number) => 1 / Number(multiplier(price).slice(1));
  const best = liveLeaders(quotes.map((q) => ({ operatorId: q.operatorId, up: shown(q.up), down: shown(q.down) })));
  const providers: LiveMarketPayload['providers_pool'] = quotes.map((q, i) => {
    const op = ctx.operatorOn(q.operatorId, 'crypto')!;
    const venueStrike = offered[i]!.strike;
    return {
      operator_id: op.id,
      operator_name: op.name,
      is_best_odds: best.has(q.operatorId),
      updated_at: offered[i]!.updatedAt,
      live_metrics: {
        spot_difference: venueStrike === null ? null : formatMoneyPrecise(spot! - venueStrike, 'USD', { signed: true }),
        target_price: venueStrike === null ? null : formatMoneyPrecise(venueStrike, 'USD'),
        multipliers: { payout_up: multiplier(q.up), payout_down: multiplier(q.down) },
      },
      incentives: {
        coupon_value: ctx.offerFor(op.id)?.couponValue ?? '',
        cta_url: ctx.clickUrl({
          operatorId: op.id,
          widget: 'live-market',
          country: ctx.jurisdiction,
          placement: `${view.asset}:${view.horizon}`,
          // The window's own contract page where the venue publishes one.
          destination: offered[i]!.marketUrl,
          advertiserId: ctx.advertiserId,
          impressionId: ctx.impressionId,
          expiresAt: ctx.linkExpiresAt,
        }),
      },
    };
  });

  // A venue this horizon lists, that may be shown here, without a usable quote: said so, not hidden.
  const listing = opts.venues.filter((v) => v.horizons.includes(view.horizon));
  const lawful = listing.filter((v) => ctx.operatorOn(v.operatorId, 'crypto'));
  const unavailable = lawful
    .filter((v) => !offered.some((p) => p.operatorId === v.operatorId))
    .map((v) => {
      const op = ctx.operatorOn(v.operatorId, 'crypto')!;
      return { operator_id: op.id, operator_name: op.name };
    });
  // With no venue to show, the payload says why, so the embed can say it rather than show an empty table.
  let reason: LiveMarketPayload['unavailable_reason'] = null;
  if (providers.length === 0)
    reason =
      listing.length === 0
        ? 'no_venue_for_horizon'
        : lawful.length === 0
          ? 'not_lawful_here'
          : stale
            ? 'stale'
            : 'no_quote';

  // The question is built around the first venue listed (venue order), so it names that venue's
  // own strike; with no venue listed, or none with a strike of its own, the window's strike if there is one.
  const questionStrike = offered.find((p) => p.strike !== null)?.strike ?? strike;
  const strikeText = questionStrike === undefined ? 'the opening price' : formatMoneyPrecise(questionStrike, 'USD');
  return {
    widget_class: 'live-market',
    ...jurisdictionFields(
      ctx,
      localeForJurisdiction(ctx.jurisdiction),
      providers.map((p) => p.operator_id),
      'crypto',
    ),
    refresh_interval_seconds: opts.refreshIntervalSeconds,
    underlying_asset: view.asset,
    active_micro_question: `Will ${view.asset} be at or above ${strikeText} at ${hhmm(w.endMs)} UTC?`,
    expiration_horizon: `${view.horizon} minutes`,
    providers_pool: providers,
    unavailable_venues: unavailable,
    unavailable_reason: reason,
    market_status: status,
    window_start: new Date(w.startMs).toISOString(),
    expires_at: new Date(w.endMs).toISOString(),
    seconds_left: secondsLeft,
    // A stale spot would read as current: a stale market shows none.
    spot_price: spot === undefined || stale ? null : formatMoneyPrecise(spot, 'USD'),
    spot_path: stale
      ? []
      : view.path.map(([ms, price]) => [Math.floor((ms - w.startMs) / 1000), price] as [number, number]),
    ...(stale ? { stale: true as const } : {}),
    timestamp: new Date(Math.max(lastTickMs ?? w.startMs, w.startMs)).toISOString(),
  };
}
