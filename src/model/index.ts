/**
 * The one internal model. Every source (simulator, Kalshi, Polymarket, the odds provider) maps into
 * these shapes; every widget builder and domain function reads them. The store wraps them in
 * versioned snapshots (store/schemas.ts) but the model knows nothing of Redis.
 */
export * from './common.js';
export * from './events.js';
export * from './sportsbook.js';
export * from './metrics.js';
export * from './fx.js';
export * from './locale.js';
export * from './currency.js';
export * from './formats.js';
export * from './data-kind.js';
export * from './live.js';
export * from './venue-market.js';
export * from './history.js';
export * from './clock.js';
