/**
 * The WebSocket topics: which exist, a topic's body for a subscriber's country, and what an events
 * snapshot change pushes. Topics are `live-market:{ASSET}:{h}` and `event:{slug}`, or
 * `event:{slug}:{display_format}` for a format other than cents.
 */
import { ASSETS, DISPLAY_FORMATS, HORIZONS, type DisplayFormat } from '../model/index.js';
import { liveTopic } from '../live/topic.js';
import type { Logger } from '../runtime/log.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import type { ServeContext } from './context.js';
import { eventBodies, type EventBodies } from './event-body.js';
import type { LivePayloads } from './live-payloads.js';

// Exactly the topics that are published: "live-market:BTC:05" must not pass for ":5".
const LIVE_TOPICS = new Map(ASSETS.flatMap((a) => HORIZONS.map((h) => [liveTopic(a, h), [a, h] as const])));

/** Where topic bodies go: the WebSocket hub, once it exists. */
export interface TopicSink {
  push(topic: string, country: string, body: Buffer): void;
  /** Every (topic, country) pair someone subscribes to now. */
  subscribed(): Array<[topic: string, country: string]>;
}

export class Topics {
  readonly #events: EventBodies;
  /** The last event body sent per (topic, country), so a rebuild that changed nothing is not pushed. */
  #sent = new Map<string, Buffer>();

  constructor(
    private readonly ctx: ServeContext,
    private readonly live: LivePayloads,
  ) {
    this.#events = eventBodies(ctx);
  }

  /**
   * A topic's body for subscribers from `country`; undefined for a topic that does not exist. An
   * event body returned here is what its subscribers from `country` hold now (a subscribe sends it).
   */
  body(topic: string, country: string): Buffer | undefined {
    const assetHorizon = LIVE_TOPICS.get(topic);
    if (assetHorizon) return this.live.latest(...assetHorizon, country).body;
    if (!topic.startsWith('event:')) return undefined;
    const [slug = '', format = 'cents', extra] = topic.slice('event:'.length).split(':');
    if (extra !== undefined || !(DISPLAY_FORMATS as readonly string[]).includes(format)) return undefined;
    let body: Buffer;
    try {
      body = this.#events(slug, format as DisplayFormat, undefined, country).body;
    } catch {
      return undefined; // unknown slug or no data yet: an unknown topic for the client
    }
    this.#sent.set(`${topic}\n${country}`, body);
    return body;
  }

  /**
   * Drops the bodies built from a snapshot when it changes and, for events, rebuilds and pushes
   * only the event topics someone watches, per subscriber country.
   */
  follow(snapshots: SnapshotCache, sink: () => TopicSink | undefined, log: Logger): void {
    snapshots.onChange((snap) => {
      this.ctx.payloads.invalidate(snap.kind, snap.key);
      log.debug({ kind: snap.kind, key: snap.key, version: snap.version }, 'snapshot updated');
      if (snap.kind === 'events') this.pushEvents(sink());
    });
  }

  /**
   * Rebuilds the event topics someone watches, per subscriber country (their bodies were dropped),
   * and pushes those whose body changed: the events snapshot holds every event, so most of its
   * changes leave a given event's body as it was.
   */
  pushEvents(hub: TopicSink | undefined): void {
    if (!hub) return;
    const before = this.#sent;
    this.#sent = new Map(); // refilled by body() for the topics still watched: the rest are forgotten
    for (const [topic, country] of hub.subscribed()) {
      if (!topic.startsWith('event:')) continue;
      const body = this.body(topic, country);
      if (body && !before.get(`${topic}\n${country}`)?.equals(body)) hub.push(topic, country, body);
    }
  }
}
