/**
 * Per-item isolation at the model: before a snapshot is validated as a whole, every item (a quote,
 * a line, a book, a game, an operator's metrics, a rate) is validated on its own, and one that
 * fails (a negative volume, odds between -100 and +100) is dropped and reported (class `schema`),
 * so one bad item never fails the whole refresh. What is left of the envelope is validated by the
 * refresh as before. Pure.
 */
import type { z } from 'zod';
import {
  AmericanOdds,
  BookOdds,
  FinishedGame,
  Matchup,
  MarketEvent,
  OperatorMetrics,
  PricedLine,
  Quote,
} from '../../model/index.js';
import type { EventsData, FxData, LeagueData, MetricsData, Outcome } from '../../model/index.js';
import type { Dropped } from './dropped.js';
import type { SnapshotDataOf, SnapshotKind } from '../../store/schemas.js';
import { LINE_FIELDS, POINT_FIELDS } from './sportsbook.js';

const issues = (e: z.ZodError) =>
  e.issues
    .map((x) => `${x.path.join('.') || 'value'}: ${x.message}`)
    .join('; ')
    .slice(0, 300);

/** Keeps the items of `items` that `schema` accepts; reports the rest under `idOf`. */
function keepValid<T>(items: readonly T[], schema: z.ZodType, idOf: (item: T) => string, dropped: Dropped[]): T[] {
  return items.filter((it) => {
    const r = schema.safeParse(it);
    if (!r.success) dropped.push({ id: idOf(it), reason: issues(r.error), class: 'schema' });
    return r.success;
  });
}

const safeStr = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '?');

// Only lists are looked into; anything else is left for the envelope's validation to refuse.
const list = <T>(v: readonly T[] | undefined): readonly T[] => (Array.isArray(v) ? v : []);

function events(data: EventsData, dropped: Dropped[]): EventsData {
  if (!Array.isArray(data.events)) return data;
  const out: MarketEvent[] = [];
  for (const ev of data.events) {
    const outcomes = list(ev.outcomes).flatMap((o): Outcome[] => {
      const quotes = keepValid(
        list(o.quotes),
        Quote,
        (q) => `${safeStr(ev.slug)}/${safeStr(o.name)}/${safeStr(q.operatorId)}`,
        dropped,
      );
      return quotes.length > 0 ? [{ ...o, quotes }] : [];
    });
    if (outcomes.length === 0) continue;
    out.push(...keepValid([{ ...ev, outcomes }], MarketEvent, (e) => safeStr(e.slug), dropped));
  }
  return { ...data, events: out };
}

function league(data: LeagueData, dropped: Dropped[]): LeagueData {
  if (!Array.isArray(data.upcoming) || !Array.isArray(data.finished)) return data;
  const upcoming = data.upcoming.map((m) => {
    const books = list(m.books).map((b) => {
      const clean: Record<string, unknown> = { ...b };
      for (const f of LINE_FIELDS) {
        if (clean[f] === undefined) continue;
        const r = ((POINT_FIELDS as readonly string[]).includes(f) ? PricedLine : AmericanOdds).safeParse(clean[f]);
        if (!r.success) {
          dropped.push({
            id: `${safeStr(m.id)}/${safeStr(b.operatorId)}/${f}`,
            reason: issues(r.error),
            class: 'schema',
          });
          delete clean[f];
        }
      }
      return clean as BookOdds;
    });
    return { ...m, books: keepValid(books, BookOdds, (b) => `${safeStr(m.id)}/${safeStr(b.operatorId)}`, dropped) };
  });
  return {
    ...data,
    upcoming: keepValid(upcoming, Matchup, (m) => safeStr(m.id), dropped),
    finished: keepValid(data.finished, FinishedGame, (g) => `finished/${safeStr(g.id)}`, dropped),
  };
}

function metrics(data: MetricsData, dropped: Dropped[]): MetricsData {
  if (!Array.isArray(data.operators)) return data;
  return { ...data, operators: keepValid(data.operators, OperatorMetrics, (o) => safeStr(o.operatorId), dropped) };
}

function fx(data: FxData, dropped: Dropped[]): FxData {
  if (!data.rates || typeof data.rates !== 'object') return data;
  const rates = Object.entries(data.rates).filter(([code, rate]) => {
    const ok = /^[A-Z]{3}$/.test(code) && typeof rate === 'number' && Number.isFinite(rate) && rate > 0;
    if (!ok) dropped.push({ id: code, reason: `rate ${String(rate)} is not a positive number`, class: 'schema' });
    return ok;
  });
  return { ...data, rates: Object.fromEntries(rates) };
}

/** `data` without the items that fail their own schema; those are added to `dropped`. */
export function isolateItems<K extends SnapshotKind>(
  kind: K,
  data: SnapshotDataOf<K>,
  dropped: Dropped[],
): SnapshotDataOf<K> {
  if (!data || typeof data !== 'object') return data;
  switch (kind) {
    case 'events':
      return events(data as EventsData, dropped) as SnapshotDataOf<K>;
    case 'sportsbook':
      return league(data as LeagueData, dropped) as SnapshotDataOf<K>;
    case 'metrics':
      return metrics(data as MetricsData, dropped) as SnapshotDataOf<K>;
    default:
      return fx(data as FxData, dropped) as SnapshotDataOf<K>;
  }
}
