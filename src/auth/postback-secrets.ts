/**
 * Operators' postback secrets: the HMAC keys an operator signs its conversion postbacks with
 * (docs/postbacks.md). Managed like advertiser keys: shown once, rotated with an overlap (the
 * previous secret keeps verifying until `retire` or the next rotation), revoked at once, every
 * change announced on CHANGED_CHANNEL so API processes reload their copy (postback-keyring.ts).
 *
 * A postback's signature can only be checked with the secret itself, so unlike an advertiser key it
 * cannot be stored as a one-way hash. Redis holds a random nonce per secret instead, and the secret
 * is HMAC-SHA256(API_KEY_PEPPER, operator and nonce): a Redis dump alone gives no usable secret,
 * and every API process derives the same one.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { OPERATOR_ID } from '../model/index.js';
import { holderTimes, liveSlots, retireSlot, revokeSlots, rotateSlots, slotId, type SlotFields } from './key-slots.js';

/** The hash of one operator's secrets, and the set of every operator that has one. */
export const secretKey = (operatorId: string) => `pw:postback:${operatorId}`;
export const SECRET_INDEX = 'pw:postback-operators';
/** Pub/sub channel naming an operator whose postback secret just changed. */
export const CHANGED_CHANNEL = 'pw:postback:changed';

/** One live secret, known by a short id (never the secret itself). */
export interface SecretRecord {
  secretId: string;
  createdAt: string;
  lastUsedAt?: string;
}

export interface OperatorSecretsRecord {
  operatorId: string;
  status: 'active' | 'revoked';
  createdAt: string;
  rotatedAt?: string;
  revokedAt?: string;
  /** Live secrets, newest first (two during a rotation's overlap). */
  secrets: SecretRecord[];
}

export class PostbackSecretError extends Error {
  override name = 'PostbackSecretError';
}

/** The signature of a postback query (everything before `&sig=`): hex HMAC-SHA256 under `secret`. */
export const postbackSignature = (secret: string | Buffer, signed: string) =>
  createHmac('sha256', secret).update(signed).digest('hex');

/** `query` signed as an operator sends it: `sig` appended last (docs/postbacks.md). */
export const signPostback = (secret: string, query: string) => `${query}&sig=${postbackSignature(secret, query)}`;

/** Where an operator's two live nonces are kept in its hash (key-slots.ts). */
const SLOTS: SlotFields = {
  value: 'nonce',
  created: 'nonceCreatedAt',
  prev: 'prevNonce',
  prevCreated: 'prevNonceCreatedAt',
};

export class PostbackSecrets {
  constructor(
    private readonly redis: Redis,
    private readonly pepper: string,
  ) {}

  /** The secret `nonce` stands for, as the operator is given it: "pwp_" and 256 bits in base64url. */
  secretOf(operatorId: string, nonce: string): string {
    return `pwp_${createHmac('sha256', this.pepper).update(`postback|${operatorId}|${nonce}`).digest('base64url')}`;
  }

  async #announce(operatorId: string): Promise<void> {
    await this.redis.publish(CHANGED_CHANNEL, operatorId);
  }

  /**
   * Gives `operatorId` its first secret and returns it (the only time it is shown).
   * @throws PostbackSecretError when the id is malformed or already has secrets.
   */
  async create(operatorId: string, now: Date): Promise<string> {
    if (!OPERATOR_ID.test(operatorId)) throw new PostbackSecretError(`operator id must match ${OPERATOR_ID}`);
    const nonce = randomBytes(32).toString('hex');
    const created = await this.redis.hsetnx(secretKey(operatorId), 'nonce', nonce);
    if (created === 0)
      throw new PostbackSecretError(`operator ${operatorId} already has a postback secret (rotate it instead)`);
    const at = now.toISOString();
    await this.redis
      .multi()
      .hset(secretKey(operatorId), 'status', 'active', 'createdAt', at, 'nonceCreatedAt', at)
      .sadd(SECRET_INDEX, operatorId)
      .exec();
    await this.#announce(operatorId);
    return this.secretOf(operatorId, nonce);
  }

  /** Adds a new secret (also reactivates a revoked operator); the previous one verifies until `retire`. */
  async rotate(operatorId: string, now: Date): Promise<string> {
    const nonce = randomBytes(32).toString('hex');
    if (!(await rotateSlots(this.redis, secretKey(operatorId), SLOTS, nonce, now)))
      throw new PostbackSecretError(`operator ${operatorId} has no postback secret (create one first)`);
    await this.#announce(operatorId);
    return this.secretOf(operatorId, nonce);
  }

  /** Ends a rotation's overlap: the previous secret stops verifying. Returns whether there was one. */
  async retire(operatorId: string): Promise<boolean> {
    const retired = await retireSlot(this.redis, secretKey(operatorId), SLOTS);
    if (retired === undefined) throw new PostbackSecretError(`operator ${operatorId} has no postback secret`);
    if (retired) await this.#announce(operatorId);
    return retired;
  }

  /** Revokes every secret of the operator: its postbacks are refused from the next one on. */
  async revoke(operatorId: string, now: Date): Promise<void> {
    if (!(await revokeSlots(this.redis, secretKey(operatorId), SLOTS, now)))
      throw new PostbackSecretError(`operator ${operatorId} has no postback secret`);
    await this.#announce(operatorId);
  }

  /** Every operator's live secrets (current first), for operators whose secrets are active. */
  async live(): Promise<Map<string, Array<{ secret: string; secretId: string }>>> {
    const ids = await this.redis.smembers(SECRET_INDEX);
    const pipe = this.redis.pipeline();
    for (const id of ids) pipe.hmget(secretKey(id), 'status', 'nonce', 'prevNonce');
    const rows = (await pipe.exec()) ?? [];
    const out = new Map<string, Array<{ secret: string; secretId: string }>>();
    ids.forEach((id, i) => {
      const [err, row] = rows[i] ?? [];
      if (err) throw err;
      const [status, nonce, prev] = row as Array<string | null>;
      if (status !== 'active') return;
      const nonces = [nonce, prev].filter((n): n is string => !!n);
      out.set(
        id,
        nonces.map((n) => ({ secret: this.secretOf(id, n), secretId: slotId(n) })),
      );
    });
    return out;
  }

  /** Records that secret `secretId` of `operatorId` verified a postback at `now` (bookkeeping). */
  async touch(operatorId: string, secretId: string, now: Date): Promise<void> {
    await this.redis.hset(secretKey(operatorId), `usedAt:${secretId}`, now.toISOString());
  }

  async list(): Promise<OperatorSecretsRecord[]> {
    const ids = (await this.redis.smembers(SECRET_INDEX)).sort();
    const rows = await Promise.all(ids.map((id) => this.redis.hgetall(secretKey(id))));
    return rows.flatMap((h, i) => {
      if (!h.status) return [];
      const secrets: SecretRecord[] = liveSlots(h, SLOTS).map(({ id, ...times }) => ({ secretId: id, ...times }));
      return [{ operatorId: ids[i]!, status: h.status as OperatorSecretsRecord['status'], ...holderTimes(h), secrets }];
    });
  }
}
