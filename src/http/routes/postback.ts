/**
 * GET /v1/postback (docs/postbacks.md): an operator's server tells us that a click became a
 * registration, a first deposit or a deposit. GET with the event in the query string is what
 * affiliate platforms fire (a URL template with their macros filled in), and it keeps the service's
 * one rule for request bodies: none. The operator signs the query: `sig`, last, is the hex
 * HMAC-SHA256 of everything before `&sig=`, under its postback secret.
 *
 * In order: a malformed query is a 400; a process that has not loaded the secrets yet answers 503;
 * an address blocked for failed authentications is refused (429, from memory) unless the signature
 * is made by a secret that verified from it lately (auth/postback-keyring.ts: an operator's server
 * left on a retired secret must not hold up its others behind the same address); a signature no
 * live secret of the named operator makes is a 401 (and an authentication failure of the address);
 * a click id past CLICK_ATTRIBUTION_DAYS is a 410;
 * then the conversion is counted in Redis: 200 `counted`, 200 `duplicate` for an event id counted
 * before (a replay changes nothing), 404 for a click id that is not one of this operator's clicks.
 * While Redis cannot answer, a checked postback is queued (tracking/postback-buffer.ts) and
 * answered 202 `queued`. Every outcome is counted in predictwire_postbacks_total. Off the widget
 * path: one Redis read and one script per postback.
 */
import { z } from 'zod';
import { parseMinorUnits } from '../../domain/money.js';
import { postbacks } from '../../metrics/http.js';
import { CURRENCY_CODES, OPERATOR_ID } from '../../model/index.js';
import { CLICK_ID, clickIdTime } from '../../tracking/click-ids.js';
import { POSTBACK_EVENTS, type Conversion, type ConversionWriter } from '../../tracking/conversions.js';
import type { PostbackReceipt } from '../operation-bodies.js';
import type { PostbackBuffer } from '../../tracking/postback-buffer.js';
import type { PostbackKeyring } from '../../auth/postback-keyring.js';
import type { RateLimits } from '../../limits/rate-limits.js';
import type { Logger } from '../../runtime/log.js';
import { enumParam } from '../params.js';
import { dataUnavailable, invalidParameters, Problem } from '../../model/problem.js';
import { parseQuery } from '../query.js';
import { json } from '../../transport/respond.js';
import type { Request } from '../../transport/types.js';
import { headers, problemRefs, queryParams, REQUEST_ID, withExample } from '../openapi-parts.js';
import { ref } from '../openapi-schemas.js';
import { route } from '../route.js';

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const amount = (what: string) =>
  z
    .string()
    .max(15)
    .regex(AMOUNT, 'must be a plain decimal such as 250 or 19.99 (a dot, no sign, no grouping)')
    .meta({ description: what });

export const PostbackQuery = z
  .object({
    operator: z
      .string()
      .max(40)
      .regex(OPERATOR_ID, 'must be your operator id')
      .meta({ description: 'Your operator id, as we gave it with your postback secret.' }),
    click_id: z
      .string()
      .max(27)
      .regex(CLICK_ID, 'must be the 27-character click id the click brought you')
      .meta({ description: 'The click id the click carried to you in your sub-id parameter.' }),
    event: enumParam(POSTBACK_EVENTS).meta({
      description: 'What the click became: registration, first_deposit, or deposit (any later deposit).',
    }),
    event_id: z
      .string()
      .max(128)
      .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'must be 1-128 characters of A-Za-z0-9._:-')
      .meta({ description: 'Your own id of this event: a postback sent again with the same one is counted once.' }),
    amount: amount(
      'The deposit (first_deposit and deposit; required there, refused on registration), in `currency`.',
    ).optional(),
    commission: amount(
      'What this event earned the advertiser (your commission to them), in `currency`; leave out when none.',
    ).optional(),
    currency: enumParam(CURRENCY_CODES)
      .meta({ description: 'ISO 4217 code of `amount` and `commission` (required with either).' })
      .optional(),
    sig: z
      .string()
      .max(64)
      .regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')
      .meta({
        description:
          'Last parameter: hex HMAC-SHA256, under your postback secret, of the query string before `&sig=`, exactly as sent.',
      }),
  })
  .superRefine((q, ctx) => {
    const issue = (param: string, message: string) => ctx.addIssue({ code: 'custom', path: [param], message });
    const deposit = q.event !== 'registration';
    if (deposit && q.amount === undefined) issue('amount', `is required for ${q.event}`);
    if (!deposit && q.amount !== undefined) issue('amount', 'is only for first_deposit and deposit');
    if ((q.amount !== undefined || q.commission !== undefined) && q.currency === undefined)
      issue('currency', 'is required with amount or commission');
    if (q.currency !== undefined) {
      for (const param of ['amount', 'commission'] as const) {
        const value = q[param];
        if (value !== undefined && parseMinorUnits(value, q.currency) === undefined)
          issue(param, `has more decimals than ${q.currency} has`);
      }
    }
  });

/** The query before `&sig=`, when `sig` is its last parameter and appears once. */
function signedPart(query: string, sig: string): string | undefined {
  const tail = `&sig=${sig}`;
  if (!query.endsWith(tail)) return undefined;
  const signed = query.slice(0, -tail.length);
  return /(^|&)sig=/.test(signed) ? undefined : signed;
}

/** Counts one outcome and returns `problem` to throw. */
function refused(outcome: string, problem: Problem): Problem {
  postbacks.labels(outcome).inc();
  return problem;
}

/** What a postback is checked against and counted with. */
export interface PostbackDeps {
  /** The client's address key (geo/address-key.ts). */
  address(req: Request): string;
  limits: Pick<RateLimits, 'anyBlocked' | 'blockedNow' | 'take'>;
  /** Operators' live postback secrets, in memory. */
  postbackKeyring: Pick<PostbackKeyring, 'loaded' | 'match' | 'verifiedFrom' | 'accept'>;
  clickAttributionMs: number;
  writeConversion: ConversionWriter;
  /** Postbacks waiting for Redis (taken while it was away). */
  postbacks: Pick<PostbackBuffer, 'add'>;
  log: Logger;
  now(): number;
}

// Its query is parsed by the route itself: a malformed postback is counted as one.
export const postback = route({
  path: '/v1/postback',
  methods: 'GET',
  reads: [],
  openapi: () => ({
    get: {
      operationId: 'receivePostback',
      tags: ['operators'],
      summary: 'An operator reports what a click became: a registration, a first deposit or a deposit',
      description:
        "Server to server, signed with the operator's postback secret (docs/postbacks.md): `sig`, the last parameter, is the hex HMAC-SHA256 of the query string before `&sig=`, exactly as sent. Counted once per `event_id`: a postback sent again is answered `duplicate` and changes nothing. Attributed to the advertiser, widget class, placement and jurisdiction of the click `click_id` names. While storage is unreachable a checked postback is queued (202) and counted within seconds of its return. GET only: HEAD and every other method are 405. An address sending too many bad signatures is refused 429 for a while.",
      parameters: [...queryParams(PostbackQuery), REQUEST_ID],
      security: [{ postbackSignature: [] }],
      responses: {
        '200': {
          description: 'Taken: `counted` (new) or `duplicate` (this event id was counted before; nothing changed).',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'application/json': { schema: ref('PostbackReceipt'), ...withExample('receivePostback') } },
        },
        '202': {
          description:
            'Queued while storage is unreachable: counted within seconds of its return (not at all if the click turns out unknown).',
          headers: headers('X-Request-Id', 'Cache-Control'),
          content: { 'application/json': { schema: ref('PostbackReceipt') } },
        },
        ...problemRefs([401, 404, 410, 429, 503]),
      },
    },
  }),
  handler:
    (deps: PostbackDeps) =>
    async ({ req }) => {
      const nowMs = deps.now();
      const address = deps.address(req);
      let q: z.infer<typeof PostbackQuery>;
      try {
        q = parseQuery(PostbackQuery, req.query);
      } catch (err) {
        throw err instanceof Problem ? refused('malformed', err) : err;
      }
      const signed = signedPart(req.query, q.sig);
      if (signed === undefined)
        throw refused('malformed', invalidParameters([{ param: 'sig', message: 'must be the last parameter, once' }]));
      // Started while Redis was away, with no secrets yet: say so, rather than call it a forgery.
      if (!deps.postbackKeyring.loaded)
        throw refused(
          'unavailable',
          dataUnavailable('Postback signatures cannot be checked right now; send this one again shortly.'),
        );
      const blocked = deps.limits.anyBlocked ? deps.limits.blockedNow('auth_failures', address, nowMs) : undefined;
      // One HMAC per live secret at most: a blocked address is answered from what verified from it.
      const secretId = blocked
        ? deps.postbackKeyring.verifiedFrom(address, q.operator, signed, q.sig)
        : deps.postbackKeyring.match(q.operator, signed, q.sig);
      if (blocked && secretId === undefined) throw refused('blocked', blocked);
      if (secretId === undefined) {
        deps.log.warn({ request_id: req.id, operator: q.operator, event_id: q.event_id }, 'postback signature refused');
        throw refused(
          'invalid_signature',
          (await deps.limits.take('auth_failures', address)) ??
            new Problem(
              401,
              'invalid_signature',
              `The signature does not match this query under a live postback secret of operator ${q.operator}.`,
              [],
              {
                'www-authenticate': 'PostbackSignature realm="predictwire", param="sig"',
              },
            ),
        );
      }
      deps.postbackKeyring.accept(q.operator, secretId, nowMs, address);
      if (nowMs - clickIdTime(q.click_id)! > deps.clickAttributionMs) {
        const days = deps.clickAttributionMs / 86_400_000;
        throw refused(
          'click_expired',
          new Problem(
            410,
            'click_expired',
            `Click ${q.click_id} is older than the ${days}-day attribution window; nothing was counted.`,
          ),
        );
      }
      const currency = q.currency;
      const conversion: Conversion = {
        operatorId: q.operator,
        clickId: q.click_id,
        event: q.event,
        eventId: q.event_id,
        ...(currency && { currency }),
        ...(currency && q.amount !== undefined && { amountMinor: parseMinorUnits(q.amount, currency)! }),
        ...(currency && q.commission !== undefined && { commissionMinor: parseMinorUnits(q.commission, currency)! }),
        atMs: nowMs,
      };
      const receipt = { operator_id: q.operator, event: q.event, event_id: q.event_id, click_id: q.click_id };
      let outcome: Awaited<ReturnType<ConversionWriter>>;
      try {
        outcome = await deps.writeConversion(conversion);
      } catch {
        if (!deps.postbacks.add(conversion))
          throw refused(
            'dropped',
            dataUnavailable('Postbacks cannot be taken right now; send this one again shortly.'),
          );
        postbacks.labels('queued').inc();
        return json(202, { status: 'queued', ...receipt } satisfies z.input<typeof PostbackReceipt>);
      }
      if (outcome === 'unknown_click' || outcome === undefined) {
        throw refused(
          'unknown_click',
          new Problem(
            404,
            'unknown_click',
            `Click ${q.click_id} is not a click of operator ${q.operator} that we know; nothing was counted.`,
          ),
        );
      }
      postbacks.labels(outcome).inc();
      return json(200, { status: outcome, ...receipt } satisfies z.input<typeof PostbackReceipt>);
    },
});
