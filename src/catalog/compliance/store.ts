/**
 * Compliance in Redis, shared by every API process of every instance: the active suspensions, the
 * rules document a compliance officer published, the audit of every change, and one revision
 * raised by each change. Each change is one Lua script (the write, the revision, the audit entry
 * and the notice together), so no process can see a change without its audit, nor miss its notice
 * and keep the old state past its next check of the revision.
 *
 * Keys: `pw:compliance:revision` (integer: absent means Redis holds no compliance state, which a
 * process that held some restores, follower.ts), `pw:compliance:suspensions` (hash: field
 * `operator|jurisdiction|surface` → JSON suspension), `pw:compliance:rules` (the published
 * document, JSON text) and `pw:compliance:rules-revision`, `pw:compliance:audit` (list of JSON
 * entries, newest first). Channel `pw:compliance`: the new revision.
 */
import type { Redis } from 'ioredis';
import { AuditEntry, Suspension, suspensionField } from './suspensions.js';

export const COMPLIANCE_CHANNEL = 'pw:compliance';
export const REVISION_KEY = 'pw:compliance:revision';
const SUSPENSIONS_KEY = 'pw:compliance:suspensions';
const RULES_KEY = 'pw:compliance:rules';
const RULES_REVISION_KEY = 'pw:compliance:rules-revision';
const AUDIT_KEY = 'pw:compliance:audit';

/** What Redis holds. */
export interface StoredCompliance {
  /** Null when Redis holds no compliance state at all (never written, or its data was lost). */
  revision: number | null;
  suspensions: Suspension[];
  /** Stored entries that are not valid suspensions (skipped, to be logged). */
  invalid: string[];
  /** The published rules document, as published. */
  rules: { revision: number; text: string } | null;
}

/** Reads everything in one round trip. */
export async function readCompliance(redis: Redis): Promise<StoredCompliance> {
  const [revision, entries, rulesRevision, rules] = (await redis
    .multi()
    .get(REVISION_KEY)
    .hgetall(SUSPENSIONS_KEY)
    .get(RULES_REVISION_KEY)
    .get(RULES_KEY)
    .exec())!.map(([err, value]) => {
    if (err) throw err;
    return value;
  }) as [string | null, Record<string, string>, string | null, string | null];
  const suspensions: Suspension[] = [];
  const invalid: string[] = [];
  for (const [field, json] of Object.entries(entries)) {
    let parsed: ReturnType<typeof Suspension.safeParse> | undefined;
    try {
      parsed = Suspension.safeParse(JSON.parse(json));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success && suspensionField(parsed.data) === field) suspensions.push(parsed.data);
    else invalid.push(field);
  }
  return {
    revision: revision === null ? null : Number(revision),
    suspensions,
    invalid,
    rules: rules !== null && rulesRevision !== null ? { revision: Number(rulesRevision), text: rules } : null,
  };
}

/** The revision alone: what the follower polls. */
export async function readRevision(redis: Redis): Promise<number | null> {
  const revision = await redis.get(REVISION_KEY);
  return revision === null ? null : Number(revision);
}

// KEYS: revision, suspensions, audit. ARGV: field, suspension JSON (empty: remove), audit JSON
// without its revision (the script adds it), channel. Returns the new revision, or -1 when a
// removal found nothing (no change, no audit).
const CHANGE_SUSPENSION = `
if ARGV[2] == '' then
  if redis.call('HDEL', KEYS[2], ARGV[1]) == 0 then return -1 end
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
local rev = redis.call('INCR', KEYS[1])
redis.call('LPUSH', KEYS[3], string.sub(ARGV[3], 1, -2) .. ',"revision":' .. rev .. '}')
redis.call('PUBLISH', ARGV[4], rev)
return rev`;

/** The operator, jurisdiction and surface a suspension is kept under. */
type SuspendedPair = Pick<Suspension, 'operator' | 'jurisdiction' | 'surface'>;

/**
 * One change of `pair`'s suspension with its audit entry: `suspension` is the JSON to store, or ''
 * to remove it. @returns the new revision, or -1 when a removal found nothing.
 */
async function changeSuspension(
  redis: Redis,
  action: 'suspend' | 'resume',
  pair: SuspendedPair,
  why: Pick<AuditEntry, 'by' | 'reason' | 'at'>,
  suspension: string,
): Promise<number> {
  const audit: AuditEntry = {
    action,
    at: why.at,
    by: why.by,
    reason: why.reason,
    operator: pair.operator,
    jurisdiction: pair.jurisdiction,
    surface: pair.surface,
  };
  return Number(
    await redis.eval(
      CHANGE_SUSPENSION,
      3,
      REVISION_KEY,
      SUSPENSIONS_KEY,
      AUDIT_KEY,
      suspensionField(pair),
      suspension,
      JSON.stringify(AuditEntry.parse(audit)),
      COMPLIANCE_CHANNEL,
    ),
  );
}

/** Records `s` (replacing a suspension of the same operator, jurisdiction and surface). @returns the new revision. */
export async function suspend(redis: Redis, s: Suspension): Promise<number> {
  return changeSuspension(redis, 'suspend', s, s, JSON.stringify(Suspension.parse(s)));
}

/** Ends the suspension of `pair`. @returns the new revision, or undefined when there was none. */
export async function resume(
  redis: Redis,
  pair: SuspendedPair,
  by: string,
  reason: string,
  at: string,
): Promise<number | undefined> {
  const rev = await changeSuspension(redis, 'resume', pair, { by, reason, at }, '');
  return rev === -1 ? undefined : rev;
}

// KEYS: revision, rules, rules revision, audit. ARGV: document text, its revision, audit JSON
// without its revision, channel. Refuses (returns the stored rules revision, negated) unless the
// document's revision is above the one published before.
const PUBLISH_RULES = `
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if tonumber(ARGV[2]) <= current then return -current end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[3], ARGV[2])
local rev = redis.call('INCR', KEYS[1])
redis.call('LPUSH', KEYS[4], string.sub(ARGV[3], 1, -2) .. ',"revision":' .. rev .. '}')
redis.call('PUBLISH', ARGV[4], rev)
return rev`;

/** Thrown when a document's revision is not above the one already published. */
export class StaleRevisionError extends Error {
  override name = 'StaleRevisionError';
  constructor(readonly published: number) {
    super(`not published: revision ${published} is already published; raise "revision" above it`);
  }
}

/**
 * Publishes a rules document (already checked by the caller) for every API process to load.
 * @returns the new compliance revision. @throws StaleRevisionError when its revision is not above the published one.
 */
export async function publishRules(
  redis: Redis,
  text: string,
  rulesRevision: number,
  by: string,
  reason: string,
  at: string,
): Promise<number> {
  const audit: AuditEntry = { action: 'publish', at, by, reason, rules_revision: rulesRevision };
  const rev = Number(
    await redis.eval(
      PUBLISH_RULES,
      4,
      REVISION_KEY,
      RULES_KEY,
      RULES_REVISION_KEY,
      AUDIT_KEY,
      text,
      rulesRevision,
      JSON.stringify(AuditEntry.parse(audit)),
      COMPLIANCE_CHANNEL,
    ),
  );
  if (rev <= 0) throw new StaleRevisionError(-rev);
  return rev;
}

// KEYS: revision, suspensions, rules, rules revision, audit. ARGV: revision, rules text ('' for
// none), rules revision, audit JSON, channel, then field/JSON pairs. Writes only into a Redis that
// holds no compliance state (another process may have restored it first).
const RESTORE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[3], ARGV[2])
  redis.call('SET', KEYS[4], ARGV[3])
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('LPUSH', KEYS[5], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[1])
return 1`;

/**
 * Puts back what a process held (from memory or its disk copy) into a Redis that lost it, keeping
 * its revision. @returns false when Redis already holds compliance state (nothing written).
 */
export async function restoreCompliance(
  redis: Redis,
  held: { revision: number; suspensions: readonly Suspension[]; rules: { revision: number; text: string } | null },
  by: string,
  at: string,
): Promise<boolean> {
  const audit: AuditEntry = {
    action: 'restore',
    at,
    by,
    reason: `Redis held no compliance state: restored revision ${held.revision} (${held.suspensions.length} suspensions${held.rules ? `, rules revision ${held.rules.revision}` : ''}); earlier audit entries are in the logs`,
    revision: held.revision,
  };
  const pairs = held.suspensions.flatMap((s) => [suspensionField(s), JSON.stringify(s)]);
  const done = await redis.eval(
    RESTORE,
    5,
    REVISION_KEY,
    SUSPENSIONS_KEY,
    RULES_KEY,
    RULES_REVISION_KEY,
    AUDIT_KEY,
    held.revision,
    held.rules?.text ?? '',
    held.rules?.revision ?? 0,
    JSON.stringify(AuditEntry.parse(audit)),
    COMPLIANCE_CHANNEL,
    ...pairs,
  );
  return done === 1;
}

/** The newest `limit` audit entries, newest first (entries that do not parse are left out). */
export async function readAudit(redis: Redis, limit = 100): Promise<AuditEntry[]> {
  const raw = await redis.lrange(AUDIT_KEY, 0, limit - 1);
  return raw.flatMap((text) => {
    try {
      const parsed = AuditEntry.safeParse(JSON.parse(text));
      return parsed.success ? [parsed.data] : [];
    } catch {
      return [];
    }
  });
}
