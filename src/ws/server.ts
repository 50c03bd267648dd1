/**
 * WebSocket subscriptions on uWS topics. A client subscribes to `live-market:{ASSET}:{h}` or
 * `event:{slug}`, gets the current payload at once and then every push. uWS fans pushes out in
 * native code; a client that reads too slowly passes the backpressure limit and is closed without
 * slowing anyone else; idle connections are pinged and dropped when dead.
 *
 * Payloads depend on the subscriber's country (resolved once, at upgrade, like a widget request), so
 * each public topic has an internal uWS topic per country (`event:{slug}@GB`); frames carry the
 * public name.
 */
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import { Problem } from '../http/problem.js';
import type { Logger } from '../log.js';
import { dataFrame, errorFrame, parseClientMessage } from './protocol.js';

/** Resolves a topic to its current payload for visitors from `country`; undefined for a topic that does not exist. */
export type TopicLookup = (topic: string, country: string) => Buffer | undefined;

/** What the upgrade request says of the client, to resolve its country from. */
export interface UpgradeRequest {
  remoteAddress: string;
  headers: Readonly<Record<string, string>>;
  query: string;
}
/** The subscriber's country; throws a Problem (400) for a bad parameter. */
export type CountryAtUpgrade = (req: UpgradeRequest) => string;

// Only X-Forwarded-For matters to geo resolution (and only through a trusted proxy).
const xffHeader = (xff: string): Record<string, string> => (xff ? { 'x-forwarded-for': xff } : {});

/** The internal uWS topic of `topic` for subscribers from `country`. */
export const countryTopic = (topic: string, country: string) => `${topic}@${country}`;

export interface WsOptions {
  /** Bytes buffered for one client before it is dropped. */
  maxBackpressure: number;
  maxSubscriptions: number;
  /** Seconds of silence before a ping; a client that does not answer is closed. */
  idleTimeoutSec: number;
}

export const DEFAULT_WS_OPTIONS: WsOptions = { maxBackpressure: 256 * 1024, maxSubscriptions: 32, idleTimeoutSec: 32 };

interface Client {
  /** Public topic names. */
  topics: Set<string>;
  country: string;
}

export interface WsHub {
  /** Pushes a payload to a topic's subscribers from `country` (a no-op with none). */
  push(topic: string, country: string, body: Buffer): void;
  hasSubscribers(topic: string, country: string): boolean;
  /** Every (public topic, country) pair someone subscribes to now. */
  subscribed(): Array<[topic: string, country: string]>;
  /** Open connections, for readiness output. */
  connections(): number;
  /** Closes every connection with 1001 (going away), for shutdown. */
  closeAll(): void;
}

/** Registers /v1/ws on `app`. */
export function registerWebSocket(
  app: TemplatedApp,
  lookup: TopicLookup,
  countryAt: CountryAtUpgrade,
  log: Logger,
  opts: WsOptions = DEFAULT_WS_OPTIONS,
): WsHub {
  const open = new Set<WebSocket<Client>>();
  // Subscriptions per (topic, country), so snapshot changes rebuild only what someone watches.
  const counts = new Map<string, { topic: string; country: string; n: number }>();
  const track = (topic: string, country: string, delta: 1 | -1) => {
    const key = countryTopic(topic, country);
    const c = counts.get(key) ?? { topic, country, n: 0 };
    c.n += delta;
    if (c.n > 0) counts.set(key, c);
    else counts.delete(key);
  };
  app.ws<Client>('/v1/ws', {
    maxPayloadLength: 4 * 1024,
    idleTimeout: opts.idleTimeoutSec,
    sendPingsAutomatically: true,
    maxBackpressure: opts.maxBackpressure,
    closeOnBackpressureLimit: true,
    upgrade: (res, req, context) => {
      let country: string;
      try {
        country = countryAt({
          remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
          headers: xffHeader(req.getHeader('x-forwarded-for')),
          query: req.getQuery() ?? '',
        });
      } catch (err) {
        const problem = err instanceof Problem && err.status === 400 ? err : new Problem(400, 'invalid_parameter', 'bad upgrade request');
        res.cork(() => {
          res.writeStatus('400 Bad Request').writeHeader('content-type', 'application/problem+json').end(JSON.stringify(problem));
        });
        return;
      }
      res.upgrade<Client>(
        { topics: new Set(), country },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      open.add(ws);
    },
    // Also runs when uWS drops a client past the backpressure limit.
    close: (ws) => {
      open.delete(ws);
      const client = ws.getUserData();
      for (const topic of client.topics) track(topic, client.country, -1);
    },
    message: (ws: WebSocket<Client>, message: ArrayBuffer, isBinary: boolean) => {
      const msg = isBinary ? 'binary frames are not supported' : parseClientMessage(Buffer.from(message).toString('utf8'));
      if (typeof msg === 'string') return void ws.send(errorFrame('bad_request', msg));
      const client = ws.getUserData();
      if (msg.op === 'unsubscribe') {
        ws.unsubscribe(countryTopic(msg.topic, client.country));
        if (client.topics.delete(msg.topic)) track(msg.topic, client.country, -1);
        return void ws.send(JSON.stringify({ op: 'unsubscribed', topic: msg.topic }));
      }
      if (!client.topics.has(msg.topic) && client.topics.size >= opts.maxSubscriptions) {
        return void ws.send(errorFrame('too_many_subscriptions', `at most ${opts.maxSubscriptions} topics per connection`));
      }
      let body: Buffer | undefined;
      try {
        body = lookup(msg.topic, client.country);
      } catch (err) {
        log.warn({ err: (err as Error).message, topic: msg.topic }, 'topic lookup failed');
      }
      if (!body) return void ws.send(errorFrame('unknown_topic', `no topic "${msg.topic}"; try live-market:BTC:5 or event:{slug}`));
      if (!client.topics.has(msg.topic)) track(msg.topic, client.country, 1);
      client.topics.add(msg.topic);
      ws.subscribe(countryTopic(msg.topic, client.country));
      ws.send(dataFrame(msg.topic, body));
    },
  });

  return {
    push(topic, country, body) {
      const internal = countryTopic(topic, country);
      if (app.numSubscribers(internal) > 0) app.publish(internal, dataFrame(topic, body), false);
    },
    hasSubscribers: (topic, country) => app.numSubscribers(countryTopic(topic, country)) > 0,
    subscribed: () => [...counts.values()].map((c): [string, string] => [c.topic, c.country]),
    connections: () => open.size,
    closeAll() {
      for (const ws of [...open]) ws.end(1001, 'server shutting down');
    },
  };
}
