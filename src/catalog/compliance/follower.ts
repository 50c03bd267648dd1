/**
 * Keeps this API process's compliance (state.ts) equal to what Redis holds (store.ts), on every API
 * process of every instance: a notice on `pw:compliance` reloads at once, a reconnect reloads (a
 * notice may have been missed), and the revision is polled every few seconds as a last resort (a
 * flushed Redis sends no notice). Nothing here runs on the request path: requests read the state
 * this applies, folded into the catalog's views.
 *
 * Rules: the bundled document, unless Redis holds a published one of a higher revision that passes
 * every check; one that fails is refused, logged with its rows, and the running rules stay.
 * Suspensions: exactly Redis's. A Redis that holds no compliance state at all (its data was lost)
 * gets back what this process held, from memory or from its disk copy: an outage never lifts a
 * suspension.
 */
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from '../../runtime/log.js';
import { type Clock, systemClock } from '../../model/clock.js';
import { BUNDLED_RULES } from './bundled.js';
import { complianceCopyFile, readComplianceCopy, writeComplianceCopy, type ComplianceCopy } from './disk-copy.js';
import { compileRulesText, RulesError, type ComplianceRules } from './rules.js';
import { applyCompliance, complianceState } from './state.js';
import {
  COMPLIANCE_CHANNEL,
  readAudit,
  readCompliance,
  readRevision,
  restoreCompliance,
  type StoredCompliance,
} from './store.js';

export interface FollowerOptions {
  operatorIds: readonly string[];
  dataDir: string;
  /** How often the revision is checked besides notices. */
  pollMs?: number;
  now?: Clock;
}

/** A published document this process would not apply. */
export interface Refusal {
  revision: number;
  problems: readonly string[];
}

type Published = StoredCompliance['rules'];

export class ComplianceFollower {
  readonly #file: string;
  readonly #now: Clock;
  /** The compliance revision applied (0: none yet, only the bundled rules). */
  #revision = 0;
  /** The disk copy being written, if any: the next write waits for it. */
  #copying: Promise<void> = Promise.resolve();
  /** The published document as Redis held it at the last reload (mirrored into the disk copy). */
  #published: Published = null;
  /** The published text last compiled, and what it gave (rules, or the refusal). */
  #compiled: { text: string; result: ComplianceRules | Refusal } | undefined;
  /** The revision last read from Redis (null: Redis held none; undefined: not read yet). */
  #seen: number | null | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  /** Redis held nothing and putting our state back failed: the poll asks again, revision unchanged. */
  #restoreFailed = false;
  #again = false;

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly log: Logger,
    private readonly opts: FollowerOptions,
  ) {
    this.#file = complianceCopyFile(opts.dataDir);
    this.#now = opts.now ?? systemClock;
  }

  /** The last published document this process refused, while it is the one Redis holds (and newer than the bundled rules). */
  get refused(): Refusal | undefined {
    const result = this.#compiled?.result;
    const current =
      this.#published !== null &&
      this.#published.revision > BUNDLED_RULES.revision &&
      this.#published.text === this.#compiled?.text;
    return current && result !== undefined && 'problems' in result ? result : undefined;
  }

  /** The compliance revision this process applies (0 before any was read). */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Applies the disk copy, for a start while Redis is away: the suspensions in force when this
   * folder's processes last saw Redis. @returns whether there was one.
   */
  seedFromDisk(): boolean {
    const copy = this.#readCopy();
    if (!copy) return false;
    this.#apply(copy);
    this.log.warn(
      { revision: copy.revision, suspensions: copy.suspensions.length },
      'compliance from the disk copy until Redis answers',
    );
    return true;
  }

  async start(): Promise<void> {
    this.subscriber.on('message', (channel: string) => {
      if (channel === COMPLIANCE_CHANNEL) this.reload();
    });
    // Notices sent while the subscription was down are lost: read again.
    this.subscriber.on('ready', () => this.reload());
    await this.subscriber.subscribe(COMPLIANCE_CHANNEL);
    await this.reload();
    this.#timer = setInterval(() => void this.#poll(), this.opts.pollMs ?? 5_000);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Reads Redis and applies what it holds; calls made meanwhile run once more after it. */
  reload(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          await this.#reloadOnce();
        } while (this.#again);
      } finally {
        // A reload that throws must not leave every later reload and poll waiting on it.
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  async #poll(): Promise<void> {
    try {
      if (this.#restoreFailed || (await readRevision(this.redis)) !== this.#seen) await this.reload();
    } catch {
      // Redis away: the reconnect reloads.
    }
  }

  async #reloadOnce(): Promise<void> {
    let stored: StoredCompliance;
    try {
      stored = await readCompliance(this.redis);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'compliance not read from Redis: the running compliance stays');
      return;
    }
    const before = this.#seen;
    this.#seen = stored.revision;
    this.#restoreFailed = false;
    if (stored.invalid.length > 0)
      this.log.error({ fields: stored.invalid }, 'invalid suspension entries in Redis skipped');
    if (stored.revision === null) return this.#restore();
    if (stored.revision < this.#revision) {
      this.log.warn(
        { redis: stored.revision, held: this.#revision },
        'compliance in Redis is older than what this process held (was Redis restored from an older copy?): following Redis; check `npm run compliance -- list`',
      );
    }
    this.#apply({ revision: stored.revision, suspensions: stored.suspensions, rules: stored.rules });
    // Not at the first read (that is start-up, not a change); a Redis that held nothing stood at 0.
    if (before !== undefined && stored.revision > (before ?? 0)) await this.#logChanges(before ?? 0, stored.revision);
  }

  /** Logs the audit entries of the changes after revision `from`, up to `to`: who, when and why. */
  async #logChanges(from: number, to: number): Promise<void> {
    try {
      const entries = await readAudit(this.redis, Math.min(to - from, 50));
      for (const e of entries.reverse())
        if ((e.revision ?? 0) > from) this.log.info({ ...e }, `compliance change: ${e.action}`);
    } catch {
      // the audit stays in Redis; the change itself is applied
    }
  }

  /**
   * Redis holds no compliance state: put back what this process holds, or its disk copy. A failure
   * is tried again at the next poll (Redis's revision stays empty, so the poll would not see a change).
   */
  async #restore(): Promise<void> {
    const held =
      this.#revision > 0
        ? { revision: this.#revision, suspensions: complianceState().suspensions, rules: this.#published }
        : this.#readCopy();
    if (!held || held.revision === 0) return;
    try {
      const by = `api ${hostname()} pid ${process.pid}`;
      if (await restoreCompliance(this.redis, held, by, new Date(this.#now()).toISOString())) {
        this.log.warn(
          { revision: held.revision, suspensions: held.suspensions.length },
          'Redis held no compliance state: restored what this process held',
        );
      }
    } catch (err) {
      this.#restoreFailed = true;
      this.log.warn({ err: (err as Error).message }, 'compliance not restored into Redis: will try again');
    }
  }

  #apply(state: Omit<ComplianceCopy, 'format'>): void {
    const before = complianceState();
    const changed = applyCompliance({ rules: this.#rulesFor(state.rules), suspensions: state.suspensions });
    const moved = state.revision !== this.#revision;
    this.#revision = state.revision;
    this.#published = state.rules;
    if (changed) {
      const now = complianceState();
      this.log.info(
        {
          revision: state.revision,
          rules: now.rules.revision,
          suspensions: now.suspensions.map((s) => `${s.operator} ${s.jurisdiction} ${s.surface ?? 'all'}`),
        },
        now.rules === before.rules ? 'compliance suspensions applied' : 'compliance rules and suspensions applied',
      );
    }
    if (moved) {
      // One write at a time: two changes close together must not share the temporary file.
      this.#copying = this.#copying
        .then(() => writeComplianceCopy(this.#file, state))
        .catch((err: unknown) =>
          this.log.warn({ err: (err as Error).message, file: this.#file }, 'compliance disk copy not written'),
        );
    }
  }

  /** The rules to apply when Redis holds `published`. */
  #rulesFor(published: Published): ComplianceRules {
    // A release whose bundled rules are as new or newer supersedes what was published before it.
    if (!published || published.revision <= BUNDLED_RULES.revision) return BUNDLED_RULES;
    if (this.#compiled?.text !== published.text) {
      const origin = `published compliance rules (revision ${published.revision})`;
      let result: ComplianceRules | Refusal;
      try {
        result = compileRulesText(published.text, this.opts.operatorIds, origin);
      } catch (err) {
        result = {
          revision: published.revision,
          problems: err instanceof RulesError ? err.problems : [(err as Error).message],
        };
        this.log.error(
          { revision: published.revision, problems: result.problems },
          `${origin} refused: the running rules stay`,
        );
      }
      this.#compiled = { text: published.text, result };
    }
    const result = this.#compiled.result;
    return 'problems' in result ? complianceState().rules : result;
  }

  #readCopy(): ComplianceCopy | undefined {
    const copy = readComplianceCopy(this.#file);
    if (copy && 'error' in copy) {
      this.log.warn({ file: this.#file, error: copy.error }, 'compliance disk copy unreadable: ignored');
      return undefined;
    }
    return copy;
  }
}
