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
import type { GeoResolver } from '../geo/resolver.js';
import type { RateLimits } from '../limits/rate-limits.js';
import { Problem } from '../model/problem.js';
import type { Logger } from '../runtime/log.js';
import type { Config } from '../config.js';
import { problemRefs, PUBLIC, queryParams } from './openapi-parts.js';
import { ref } from './openapi-schemas.js';
import { WsQuery } from './params.js';
import { parseQuery } from './query.js';
import { route } from './route.js';

type App = Parameters<typeof registerWebSocket>[0];

/** Registers /v1/ws on the app (transport/server.ts, `configure`); `ledger` is the shared one of API workers. */
export function webSocketRoute(
  deps: {
    config: Pick<Config, 'wsMaxBackpressureBytes' | 'wsIdleTimeoutSeconds' | 'limits'>;
    geo: GeoResolver;
    limits: RateLimits;
    log: Logger;
  },
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

/** /v1/ws over plain HTTP, without `Upgrade: websocket` (uWS's WebSocket route takes those): say how to open it. */
export const webSocketUpgrade = route({
  path: '/v1/ws',
  reads: [],
  openapi: () => ({
    get: {
      operationId: 'openWebSocket',
      tags: ['widgets'],
      summary: 'WebSocket upgrade: live widget payloads pushed on every change',
      description: `JSON text frames. Send \`WsClientMessage\` to subscribe to \`live-market:{ASSET}:{5|15}\` or \`event:{slug}\` (\`event:{slug}:{display_format}\` for \`implied_pct\` or \`decimal\`); the server sends a \`WsServerFrame\` at once and on every change. At most ${DEFAULT_WS_OPTIONS.maxSubscriptions} topics per connection. The \`x-websocket\` extension names both message schemas.`,
      parameters: queryParams(WsQuery),
      security: PUBLIC,
      'x-websocket': { client: ref('WsClientMessage'), server: ref('WsServerFrame') },
      responses: {
        '101': { description: 'Switching protocols: the connection is a WebSocket from here on.' },
        ...problemRefs([426, 429, 503]),
      },
    },
  }),
  handler: () => () => {
    throw new Problem(
      426,
      'upgrade_required',
      'GET /v1/ws takes only WebSocket upgrades: connect with a WebSocket client (ws:// or wss://).',
      [],
      { upgrade: 'websocket', connection: 'Upgrade' },
    );
  },
});
