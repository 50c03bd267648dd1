/**
 * A copy of every advertiser record on local disk (`DATA_DIR/advertisers.json`: the export format,
 * key hashes only, never a key), kept by each API process, so records Redis loses (a flush, an
 * eviction under a policy other than noeviction, a restart without persistence) are put back from
 * it instead of turning every advertiser's key into a 401. The copy follows Redis at every reload
 * of the advertiser ids (every 30 s, after each change notice and reconnect); an advertiser it
 * holds and Redis lacks is restored then, and at once when a key check finds its record gone. An
 * advertiser is never deleted (revoking keeps the record), so one missing from Redis was lost.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from '../runtime/log.js';
import { AdvertiserBackup, advertiserBackup, exportAdvertisers, importAdvertisers } from './advertiser-backup.js';
import { advKey } from './advertiser-keys.js';
import { systemClock, type Clock } from '../model/clock.js';

/** The copy's file in the data folder. */
export const vaultFile = (dataDir: string) => join(dataDir, 'advertisers.json');

type Entry = AdvertiserBackup['advertisers'][number];

export class AdvertiserVault {
  /** Advertiser id → its record as last seen in Redis (or read from the file at start). */
  #records = new Map<string, Entry>();
  /** The advertisers as last written, to write only what changed. */
  #written = '';
  #restored = 0;
  #syncing: Promise<string[]> | undefined;
  #failing = false;

  constructor(
    private readonly redis: Redis,
    private readonly file: string,
    private readonly log: Logger,
    private readonly now: Clock = systemClock,
  ) {
    try {
      const copy = AdvertiserBackup.parse(JSON.parse(readFileSync(file, 'utf8')));
      for (const entry of copy.advertisers) this.#records.set(entry.id, entry);
      this.#written = JSON.stringify(this.#sorted());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        log.warn({ err: (err as Error).message, file }, 'advertiser copy unreadable; starting a new one');
    }
  }

  /** Advertisers restored from the copy since start. */
  get restored(): number {
    return this.#restored;
  }

  /**
   * Restores what Redis lost of the copy, then takes Redis's records into it; returns the ids
   * restored. A failure (Redis away) is logged once per streak and restores nothing.
   */
  sync(): Promise<string[]> {
    // One at a time: a burst of notices needs one read of Redis, not one each.
    this.#syncing ??= this.#sync()
      .then(
        (added) => {
          this.#failing = false;
          return added;
        },
        (err: unknown) => {
          if (!this.#failing)
            this.log.warn({ err: (err as Error).message }, 'advertiser disk copy not compared with Redis; will retry');
          this.#failing = true;
          return [];
        },
      )
      .finally(() => (this.#syncing = undefined));
    return this.#syncing;
  }

  /** When the copy holds `id` and Redis has no record of it: restores it (and any other lost); true when `id` was. */
  async restoreIfLost(id: string): Promise<boolean> {
    if (!this.#records.has(id) || (await this.redis.exists(advKey(id))) === 1) return false;
    return (await this.sync()).includes(id);
  }

  async #sync(): Promise<string[]> {
    const current = await exportAdvertisers(this.redis, new Date(this.now()));
    const present = new Set(current.advertisers.map((a) => a.id));
    const lost = [...this.#records.values()].filter((entry) => !present.has(entry.id));
    let added: string[] = [];
    if (lost.length > 0) {
      ({ added } = await importAdvertisers(this.redis, { ...current, advertisers: lost }));
      this.#restored += added.length;
      if (added.length > 0)
        this.log.warn(
          { advertisers: added, file: this.file },
          'advertiser records missing from Redis (flushed, evicted or lost in a restart): restored from the disk copy',
        );
    }
    for (const entry of current.advertisers) this.#records.set(entry.id, entry);
    this.#write();
    return added;
  }

  #sorted(): Entry[] {
    return [...this.#records.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Writes the copy when it changed, under a temporary name then renamed (API workers share the folder). */
  #write(): void {
    const advertisers = this.#sorted();
    const compact = JSON.stringify(advertisers);
    if (compact === this.#written) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(join(this.file, '..'), { recursive: true });
      writeFileSync(tmp, `${JSON.stringify(advertiserBackup(advertisers, new Date(this.now())), null, 2)}\n`, {
        mode: 0o600,
      });
      renameSync(tmp, this.file);
      this.#written = compact;
    } catch (err) {
      rmSync(tmp, { force: true });
      this.log.warn({ err: (err as Error).message, file: this.file }, 'advertiser disk copy not written');
    }
  }
}
