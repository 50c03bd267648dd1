/**
 * WebSocket subscriptions on uWS topics. A client subscribes to `live-market:{ASSET}:{h}` or
 * `event:{slug}`, gets the current payload at once and then every push. uWS fans pushes out in
 * native code; a client that reads too slowly passes the backpressure limit and is closed without
 * slowing anyone else; idle connections are pinged and dropped when dead.
 *
 * Limits: open connections per client address (IPv6: per /64) and in all, checked before the
 * upgrade (refused with 429 / 503); upgrades per address over time (blocked from memory, charged
 * after the fact); and messages per connection per second (over it the connection is closed with
 * 1008). A client message over MAX_MESSAGE_BYTES is closed with 1009 (RFC 6455: too big to
 * process); uWS reads frames up to MAX_FRAME_BYTES so that it can say so, and only beyond that
 * cuts the connection itself, without a close frame (the client sees 1006). The upgrade is decided inside uWS's handler whenever memory can tell (always in one
 * process; with API workers, unless the address is near its cap: connection-ledger.ts), so uWS
 * corks the 101 itself.
 *
 * Payloads depend on the subscriber's country (resolved once, at upgrade, like a widget request), so
 * each public topic has an internal uWS topic per country (`event:{slug}@GB`); frames carry the
 * public name.
 */
import type { HttpRequest, HttpResponse, TemplatedApp, WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { remoteAddress as peerAddress } from './remote-address.js';
import { problemReply, writeHead } from './server.js';
import { Problem } from '../model/problem.js';
import { givenRequestId, nextRequestNumber, requestIdText } from './request-id.js';
import type { Logger } from '../runtime/log.js';
import { wsConnections, wsMaxConnections, wsRefused, wsSubscriptions } from '../metrics/http.js';
import { dataFrame, errorFrame, parseClientMessage, unsubscribedFrame } from './ws/protocol.js';
import { localLedger, type ConnectionLedger } from './ws/connection-ledger.js';
import { monotonicClock, type Clock } from '../model/clock.js';

/** The longest client message we process: subscribe and unsubscribe are far shorter. */
export const MAX_MESSAGE_BYTES = 4 * 1024;
/** The longest frame uWS reads (to close it with 1009) before dropping the connection outright. */
const MAX_FRAME_BYTES = 64 * 1024;

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

// Only X-Forwarded-For and a trusted CDN's geo headers matter to geo resolution (and only through a trusted proxy).
function geoHeaders(req: HttpRequest, xff: string, names: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = xff ? { 'x-forwarded-for': xff } : {};
  for (const name of names ?? []) {
    const value = req.getHeader(name);
    if (value) out[name] = value;
  }
  return out;
}

/** The internal uWS topic of `topic` for subscribers from `country`. */
export const countryTopic = (topic: string, country: string) => `${topic}@${country}`;

export interface WsOptions {
  /** Bytes buffered for one client before it is dropped. */
  maxBackpressure: number;
  maxSubscriptions: number;
  /** Seconds of silence before a ping; a client that does not answer is closed. */
  idleTimeoutSec: number;
  /** Open connections per client address key. */
  maxPerAddress: number;
  /** Open connections in all (kept well below the file-descriptor limit). */
  maxConnections: number;
  maxMessagesPerSecond: number;
  /** Request headers geo resolution reads besides X-Forwarded-For (a trusted CDN's, GeoResolver.headerNames). */
  geoHeaders?: readonly string[];
  /** Times each client's one-second message window (default: monotonic). */
  now?: Clock;
}

export const DEFAULT_WS_OPTIONS: WsOptions = {
  maxBackpressure: 256 * 1024,
  maxSubscriptions: 32,
  idleTimeoutSec: 32,
  maxPerAddress: 20,
  maxConnections: 4096,
  maxMessagesPerSecond: 20,
};

/** How the hub learns who is connecting and whether they may. */
export interface WsAdmission {
  /** The limit key of the client behind an upgrade request (see geo/address-key.ts). */
  addressOf(remoteAddress: string, forwardedFor: string | undefined): string;
  /** Rate limit on upgrades, from memory: the problem to answer with, or undefined to go on. */
  blocked(address: string): Problem | undefined;
  /** Counts an admitted upgrade against the rate limit (after the fact; a key over it is blocked). */
  charge(address: string): void;
  /** Per-address slots; by default this process's own (API workers share their primary's). */
  ledger?: ConnectionLedger;
}

const OPEN_ADMISSION: WsAdmission = { addressOf: (remote) => remote, blocked: () => undefined, charge: () => {} };

interface Client {
  /**
   * Public topic names. An array replaced on each change rather than a Set: most clients hold one
   * topic, and an array of exactly that size is a fraction of a Set's memory, kept per idle socket.
   */
  topics: readonly string[];
  country: string;
  address: string;
  /** Start (epoch ms) of the current one-second message window, and messages in it. */
  windowStart: number;
  messages: number;
  /**
   * The connection's slot, shared by reference: uWS hands `open` and `close` a copy of the upgrade's
   * user data, and a slot granted at once can be lost after the upgrade.
   */
  slot: Slot;
}

interface Slot {
  /** False when a slot granted at once was refused by the primary after all (nothing to release). */
  held: boolean;
  /** The open socket, for closing it when its slot is lost. */
  socket: WebSocket<Client> | undefined;
}

/** Refuses an upgrade with `problem`, under the caller's X-Request-Id (`givenId`) when valid, else ours. */
function refuse(res: HttpResponse, problem: Problem, log: Logger, givenId: string): void {
  const id = givenRequestId(givenId || undefined) ?? requestIdText(nextRequestNumber());
  const reply = problemReply(problem, log, { id });
  res.cork(() => {
    writeHead(res, reply);
    res.writeHeader('x-request-id', id);
    res.end(reply.body, true);
  });
}

export interface WsHub {
  /** Pushes a payload to a topic's subscribers from `country` (a no-op with none). */
  push(topic: string, country: string, body: Buffer): void;
  hasSubscribers(topic: string, country: string): boolean;
  /** Every (public topic, country) pair someone subscribes to now. */
  subscribed(): Array<[topic: string, country: string]>;
  /** Open connections, for readiness output. */
  connections(): number;
  /**
   * Closes every connection with 1001 (going away), for shutdown. Resolves once every close frame
   * has been handed to the socket: a connection with a backlog is closed when it drains (or when
   * uWS drops it), so its frame is not cut off by the server closing.
   */
  closeAll(): Promise<void>;
}

/** Registers /v1/ws on `app`. */
export function registerWebSocket(
  app: TemplatedApp,
  lookup: TopicLookup,
  countryAt: CountryAtUpgrade,
  log: Logger,
  opts: WsOptions = DEFAULT_WS_OPTIONS,
  admission: WsAdmission = OPEN_ADMISSION,
): WsHub {
  const open = new Set<WebSocket<Client>>();
  wsMaxConnections.set(opts.maxConnections);
  const clock = opts.now ?? monotonicClock;
  /** Connections open or being upgraded, per address key (reserved before the upgrade). */
  const ledger = admission.ledger ?? localLedger();
  /** This process's connections open or being upgraded: file descriptors are per process. */
  let reserved = 0;
  const LOST_SLOT = `at most ${opts.maxPerAddress} open WebSocket connections per client address`;
  const refusePerAddress = (res: HttpResponse, givenId: string) => {
    wsRefused.labels('per_address').inc();
    refuse(
      res,
      new Problem(
        429,
        'rate_limited',
        `At most ${opts.maxPerAddress} open WebSocket connections per client address.`,
        [],
        {
          'retry-after': '5',
          // A cap on concurrent connections, not a quota per window: the policy has no `w`.
          'ratelimit-policy': `"ws_connections";q=${opts.maxPerAddress}`,
          ratelimit: '"ws_connections";r=0;t=5',
        },
      ),
      log,
      givenId,
    );
  };
  /** From closeAll on: connections whose close frame waits for their backlog, and what to call once it went out. */
  let closing: Map<WebSocket<Client>, () => void> | undefined;
  const goAway = (ws: WebSocket<Client>) => ws.end(1001, 'server shutting down');
  // Subscriptions per (topic, country), so snapshot changes rebuild only what someone watches.
  const counts = new Map<string, { topic: string; country: string; n: number }>();
  /** Counts a subscription in or out; returns the topic's name as first held, one string for all its subscribers. */
  const track = (topic: string, country: string, delta: 1 | -1) => {
    const key = countryTopic(topic, country);
    const c = counts.get(key) ?? { topic, country, n: 0 };
    c.n += delta;
    if (c.n > 0) counts.set(key, c);
    else counts.delete(key);
    return c.topic;
  };
  const behavior: WebSocketBehavior<Client> = {
    maxPayloadLength: MAX_FRAME_BYTES,
    idleTimeout: opts.idleTimeoutSec,
    sendPingsAutomatically: true,
    maxBackpressure: opts.maxBackpressure,
    closeOnBackpressureLimit: true,
    drain: (ws) => {
      if (closing?.has(ws) && ws.getBufferedAmount() === 0) goAway(ws);
    },
    upgrade: (res, req, context) => {
      const wsKey = req.getHeader('sec-websocket-key');
      const protocol = req.getHeader('sec-websocket-protocol');
      const extensions = req.getHeader('sec-websocket-extensions');
      const remoteAddress = peerAddress(res);
      const forwardedFor = req.getHeader('x-forwarded-for');
      const givenId = req.getHeader('x-request-id');
      let country: string;
      try {
        country = countryAt({
          remoteAddress,
          headers: geoHeaders(req, forwardedFor, opts.geoHeaders),
          query: req.getQuery() ?? '',
        });
      } catch (err) {
        return refuse(
          res,
          err instanceof Problem && err.status === 400
            ? err
            : new Problem(400, 'invalid_parameter', 'bad upgrade request'),
          log,
          givenId,
        );
      }
      const address = admission.addressOf(remoteAddress, forwardedFor || undefined);
      if (reserved >= opts.maxConnections) {
        wsRefused.labels('total').inc();
        return refuse(
          res,
          new Problem(
            503,
            'rate_limited',
            'This server holds all the WebSocket connections it can; try again shortly.',
            [],
            { 'retry-after': '5' },
          ),
          log,
          givenId,
        );
      }
      const overRate = admission.blocked(address);
      if (overRate) {
        wsRefused.labels('rate').inc();
        return refuse(res, overRate, log, givenId);
      }
      const slot: Slot = { held: true, socket: undefined };
      const client: Client = { topics: [], country, address, windowStart: 0, messages: 0, slot };
      const granted = ledger.reserve(address, opts.maxPerAddress, () => {
        // Granted at once, then refused by the primary: other workers took the last slots meanwhile.
        slot.held = false;
        wsRefused.labels('per_address').inc();
        slot.socket?.end(1013, LOST_SLOT);
      });
      if (granted === false) return refusePerAddress(res, givenId);
      reserved++;
      if (granted === true) {
        // Decided at once: upgraded inside the handler, where uWS corks the 101 itself.
        admission.charge(address);
        return res.upgrade<Client>(client, wsKey, protocol, extensions, context);
      }
      // Near the cap, a worker waits for its primary (everything from `req` is read above: it is
      // gone after the first await).
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
        reserved--;
      });
      void granted.then((ok) => {
        if (aborted) {
          if (ok) ledger.release(address);
          return;
        }
        if (!ok) {
          reserved--;
          return refusePerAddress(res, givenId);
        }
        admission.charge(address);
        // Not corked, against the uWS advice: in our build (uws-pack 20.0.8) `res.cork` reads the
        // response's state from memory that is the WebSocket's after an upgrade inside it, and
        // sometimes closes the socket right after `open` (often on Node 22). Fixed upstream in
        // uWebSockets v20.79.0 (PR #1929). Costs a stderr warning and unbatched writes, only on
        // this path.
        res.upgrade<Client>(client, wsKey, protocol, extensions, context);
      });
    },
    open: (ws) => {
      const { slot } = ws.getUserData();
      // Lost between the upgrade and now: nothing more to do than close.
      if (!slot.held) return void ws.end(1013, LOST_SLOT);
      slot.socket = ws;
      open.add(ws);
      wsConnections.set(open.size);
    },
    // Also runs when uWS drops a client past the backpressure limit.
    close: (ws) => {
      open.delete(ws);
      if (closing) {
        closing.get(ws)?.();
        closing.delete(ws);
      }
      const client = ws.getUserData();
      for (const topic of client.topics) track(topic, client.country, -1);
      wsSubscriptions.dec(client.topics.length);
      wsConnections.set(open.size);
      client.slot.socket = undefined; // closed: a slot lost later has nothing left to close
      reserved--;
      if (client.slot.held) ledger.release(client.address);
    },
    message: (ws: WebSocket<Client>, message: ArrayBuffer, isBinary: boolean) => {
      const client = ws.getUserData();
      // Per-socket state, checked inline: the cheapest possible limit for the message path.
      const now = clock();
      if (now - client.windowStart >= 1000) {
        client.windowStart = Math.floor(now); // a small integer, kept inline, not a boxed double per socket
        client.messages = 0;
      }
      if (++client.messages > opts.maxMessagesPerSecond) {
        wsRefused.labels('messages').inc();
        return void ws.end(1008, 'message rate limit exceeded');
      }
      if (message.byteLength > MAX_MESSAGE_BYTES) {
        wsRefused.labels('message_size').inc();
        return void ws.end(1009, `messages are at most ${MAX_MESSAGE_BYTES} bytes`);
      }
      const msg = isBinary
        ? 'binary frames are not supported'
        : parseClientMessage(Buffer.from(message).toString('utf8'));
      if (typeof msg === 'string') return void ws.send(errorFrame('bad_request', msg));
      if (msg.op === 'unsubscribe') {
        if (client.topics.includes(msg.topic)) {
          client.topics = client.topics.filter((t) => t !== msg.topic);
          ws.unsubscribe(countryTopic(msg.topic, client.country));
          track(msg.topic, client.country, -1);
          wsSubscriptions.dec();
        }
        return void ws.send(unsubscribedFrame(msg.topic));
      }
      // Already held: nothing to do (re-sending the payload would let a client amplify us).
      if (client.topics.includes(msg.topic)) return;
      if (client.topics.length >= opts.maxSubscriptions) {
        return void ws.send(
          errorFrame('too_many_subscriptions', `at most ${opts.maxSubscriptions} topics per connection`),
        );
      }
      let body: Buffer | undefined;
      try {
        body = lookup(msg.topic, client.country);
      } catch (err) {
        log.warn({ err: (err as Error).message, topic: msg.topic }, 'topic lookup failed');
      }
      if (!body)
        return void ws.send(
          errorFrame('unknown_topic', `no topic "${msg.topic}"; try live-market:BTC:5 or event:{slug}`),
        );
      // Exact size (a spread or push leaves room for 16 more), and the topic's one shared name
      // rather than this message's copy: what an idle subscriber keeps is counted per socket.
      client.topics = client.topics.concat(track(msg.topic, client.country, 1));
      wsSubscriptions.inc();
      ws.subscribe(countryTopic(msg.topic, client.country));
      ws.send(dataFrame(msg.topic, body));
    },
  };
  // With a trailing slash too, as every REST path.
  app.ws<Client>('/v1/ws', behavior).ws<Client>('/v1/ws/', behavior);

  return {
    push(topic, country, body) {
      const internal = countryTopic(topic, country);
      if (app.numSubscribers(internal) > 0) app.publish(internal, dataFrame(topic, body), false);
    },
    hasSubscribers: (topic, country) => app.numSubscribers(countryTopic(topic, country)) > 0,
    subscribed: () => [...counts.values()].map((c): [string, string] => [c.topic, c.country]),
    connections: () => open.size,
    closeAll() {
      const sent: Array<Promise<void>> = [];
      const waiting = (closing ??= new Map());
      for (const ws of [...open]) {
        if (ws.getBufferedAmount() === 0) goAway(ws);
        else sent.push(new Promise((resolve) => waiting.set(ws, resolve)));
      }
      return Promise.all(sent).then(() => undefined);
    },
  };
}
