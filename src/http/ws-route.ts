/**
 * /v1/ws: subscriptions to the serving layer's topics. An upgrade is admitted as a widget request
 * would be: the subscriber's country resolved once, the client's address key, the `ws_upgrade` limit.
 */
import { addressKey } from '../geo/address-key.js';
import { upgradeLimit } from '../limits/ws-upgrade.js';
import type { Topics } from '../serve/topics.js';
import { defaultWsCap } from '../transport/ws/fd-limit.js';
import type { ConnectionLedger } from '../transport/ws/connection-ledger.js';
import { DEFAULT_WS_OPTIONS, registerWebSocket, type UpgradeRequest, type WsHub } from '../transport/ws-server.js';
import type { Deps } from './deps.js';
import { WsQuery } from './params.js';
import { parseQuery } from './query.js';

type App = Parameters<typeof registerWebSocket>[0];

/** Registers /v1/ws on the app (transport/server.ts, `configure`); `ledger` is the shared one of API workers. */
export function webSocketRoute(
  deps: Pick<Deps, 'config' | 'geo' | 'limits' | 'log'>,
  topics: Topics,
  ledger?: ConnectionLedger,
): (app: App) => WsHub {
  const { config, geo } = deps;
  // The subscriber's country, resolved once at upgrade as for a widget request.
  const countryAt = (req: UpgradeRequest) => geo.resolve(req, parseQuery(WsQuery, req.query).fallback_geo).jurisdiction;
  const lookup = (topic: string, country: string) => topics.body(topic, country);
  return (app) =>
    registerWebSocket(
      app,
      lookup,
      countryAt,
      deps.log,
      {
        ...DEFAULT_WS_OPTIONS,
        maxBackpressure: config.wsMaxBackpressureBytes,
        idleTimeoutSec: config.wsIdleTimeoutSeconds,
        maxPerAddress: config.limits.wsPerAddress,
        maxConnections: config.limits.wsTotal || defaultWsCap(),
        maxMessagesPerSecond: config.limits.wsMessagesPerSecond,
        geoHeaders: geo.headerNames,
      },
      {
        addressOf: (remoteAddress, forwardedFor) =>
          addressKey(
            geo.clientAddress({
              remoteAddress,
              headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
            }),
          ),
        ...upgradeLimit(deps.limits),
        ledger,
      },
    );
}
