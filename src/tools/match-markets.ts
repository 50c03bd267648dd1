/**
 * Prints candidate Kalshi × Polymarket pairs for review. It never writes the catalog: a person reads
 * both venues' rules and adds an entry to src/catalog/events/data.ts (or EVENT_CATALOG_FILE).
 *
 *   npm run match-markets                                   # live listings (KALSHI_BASE_URL, POLYMARKET_GAMMA_URL)
 *   npm run match-markets -- --kalshi k.json --polymarket p.json [--all] [--json]
 *
 * Files hold a Kalshi `GET /events?with_nested_markets=true` events array (or its envelope) and a
 * Gamma `GET /events` array. `--all` also prints low and rejected pairs (look-alikes and why).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { proposeMatches, type Proposal } from '../domain/matching/match.js';
import { KalshiClient } from '../sources/kalshi/client.js';
import { normalizeKalshiEvents } from '../sources/kalshi/normalize.js';
import { PolymarketClient } from '../sources/polymarket/client.js';
import { normalizeGammaEvents } from '../sources/polymarket/normalize.js';

const USAGE = `usage: npm run match-markets -- [--kalshi FILE] [--polymarket FILE] [--all] [--json]

Proposes Kalshi x Polymarket market pairs for a person to review; it never writes the catalog.

inputs (each side independently; without a file that side is fetched live):
  --kalshi FILE      JSON of Kalshi GET /events?with_nested_markets=true: the events array or
                     the {"events": [...]} envelope. Live: KALSHI_BASE_URL (public API by default)
  --polymarket FILE  JSON of Polymarket Gamma GET /events: an array or {"events": [...]}.
                     Live: POLYMARKET_GAMMA_URL (public API by default)
output:
  --all              also list low-confidence and rejected pairs, with the reasons
  --json             the proposals as JSON on stdout
  -h, --help         this text`;

/** A problem the user can fix: printed as one line, no stack trace. */
class InputError extends Error {}

let values: { kalshi?: string; polymarket?: string; all: boolean; json: boolean; help: boolean };
try {
  ({ values } = parseArgs({
    options: {
      kalshi: { type: 'string' },
      polymarket: { type: 'string' },
      all: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
process.on('uncaughtException', (err) => {
  process.stderr.write(`match-markets: ${err instanceof InputError ? err.message : String(err.message ?? err)}\n`);
  process.exit(1);
});

const readArray = (file: string, key: string): unknown[] => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read (${code ?? (err as Error).message})`,
    );
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file}: not JSON (${(err as Error).message})`);
  }
  if (Array.isArray(v)) return v;
  const inner = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  if (Array.isArray(inner)) return inner;
  throw new InputError(`${file}: expected an array or {"${key}": [...]}`);
};

const kalshiRaw = values.kalshi
  ? readArray(values.kalshi, 'events')
  : await new KalshiClient({
      ...(process.env.KALSHI_BASE_URL ? { baseUrl: process.env.KALSHI_BASE_URL } : {}),
    }).listEvents({ status: 'open' });
const polyListing = values.polymarket
  ? { events: readArray(values.polymarket, 'events') }
  : await new PolymarketClient({
      ...(process.env.POLYMARKET_GAMMA_URL ? { gammaUrl: process.env.POLYMARKET_GAMMA_URL } : {}),
    }).listEvents();
// A truncated listing means missing candidates, not "no match": say so.
if ('truncated' in polyListing && polyListing.truncated)
  process.stderr.write(
    `warning: Polymarket listing truncated (${polyListing.truncated}); some markets were not compared\n`,
  );
const polyRaw = polyListing.events;

const k = normalizeKalshiEvents(kalshiRaw);
const p = normalizeGammaEvents(polyRaw);
const proposals = proposeMatches(k.markets, p.markets).filter(
  (x) => values.all || x.band === 'high' || x.band === 'medium',
);

const brief = (x: Proposal) => ({
  band: x.band,
  confidence: x.confidence,
  kalshi: { ticker: x.kalshi.id, title: x.kalshi.title, closesAt: x.kalshi.closesAt },
  polymarket: {
    eventSlug: x.polymarket.eventId,
    marketSlug: x.polymarket.id,
    conditionId: x.polymarket.conditionId,
    title: x.polymarket.title,
  },
  flags: x.flags,
  reasons: x.reasons,
});

if (values.json) {
  process.stdout.write(`${JSON.stringify(proposals.map(brief), null, 2)}\n`);
} else {
  process.stdout.write(
    `${k.markets.length} Kalshi and ${p.markets.length} Polymarket markets; ${proposals.length} proposals (review before adding to the catalog)\n\n`,
  );
  for (const x of proposals) {
    process.stdout.write(
      `[${x.band} ${x.confidence.toFixed(2)}] ${x.kalshi.id}  <->  ${x.polymarket.eventId}/${x.polymarket.id}\n`,
    );
    process.stdout.write(`    K: ${x.kalshi.title}\n    P: ${x.polymarket.title}\n`);
    for (const r of x.reasons) process.stdout.write(`    - ${r}\n`);
    process.stdout.write('\n');
  }
}
if (k.dropped.length + p.dropped.length > 0)
  process.stderr.write(`skipped ${k.dropped.length + p.dropped.length} malformed listings\n`);
