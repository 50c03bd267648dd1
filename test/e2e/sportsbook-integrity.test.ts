/**
 * Issue 35 end to end: the real worker and API processes on the replayed odds provider, which then
 * sends a book three days old, a book far from every other book's line, and a game with its home
 * and away teams swapped. The sportsbook widget never flags any of them best: the frozen book is
 * withheld, the outlying moneylines are withheld, and the relabelled game keeps its last good
 * version. Which operator is best is read from the payload's own figures, never written down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { americanToDecimal } from '../../src/domain/odds.js';
import { readMeta } from '../../src/store/snapshots.js';
import { SportsbookWidgetPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';
import { replayEnv, startReplayServer, type ReplayServer } from '../support/upstream-replay.js';

type Obj = Record<string, unknown>;
type Game = Obj & { bookmakers: Array<Obj & { markets: Array<Obj & { outcomes: Obj[] }> }> };

const redis = useRedis();
let replay: ReplayServer;
let worker: ServiceProcess;
let api: ServiceProcess;

beforeAll(async () => {
  replay = await startReplayServer();
  // Pacing spreads the credits left over what is left of the month (pacing.ts): a million paced
  // the league at 30 s early in a month and 3 s at its end, so the test failed in a month's first
  // days. A billion paces every refresh under 40 ms on any day.
  replay.oddsRemaining = 1e9;
  // Every refresh calls the provider: a mutation shows at the next one.
  const env = testEnv(redis.url, {
    ...replayEnv(replay.base),
    SOURCES: 'sportsbook=odds-api',
    ODDS_API_MIN_INTERVAL_SECONDS: '0',
  });
  worker = await spawnProcess('workers/main.ts', env);
  api = await spawnProcess('src/main.ts', env);
  await waitFor(`${api.base}/readyz`, (s) => s === 200, api);
}, 90_000);

afterAll(async () => {
  await Promise.all([api?.stop(), worker?.stop()]);
  await replay?.stop();
});

/** The widget of a team's next game for a New Jersey visitor, in American odds; undefined before the league's first snapshot. */
const widget = async (team: string) => {
  const res = await fetch(
    `${api.base}/v1/widgets/sportsbook?league=NBA&team_context=${encodeURIComponent(team)}&fallback_geo=US-NJ&odds_format=american`,
  );
  return res.status === 200 ? SportsbookWidgetPayload.parse(await res.json()) : undefined;
};
type Row = SportsbookWidgetPayload['odds_matrix']['operators'][number];
const row = (p: SportsbookWidgetPayload, name: string) => p.odds_matrix.operators.find((o) => o.name === name);

/** Whether the flags of a moneyline key are exactly the rows showing its best figure (the highest payout shown). */
function flagsFollowFigures(p: SportsbookWidgetPayload, key: 'home_moneyline' | 'away_moneyline'): void {
  const shown = p.odds_matrix.operators.filter((o) => o.lines[key] !== undefined);
  const best = Math.max(...shown.map((o) => americanToDecimal(Number(o.lines[key]))));
  const leaders = (rows: Row[]) => rows.map((o) => o.name).sort();
  expect(leaders(p.odds_matrix.operators.filter((o) => o.best_odds.includes(key)))).toEqual(
    leaders(shown.filter((o) => americanToDecimal(Number(o.lines[key])) === best)),
  );
}

describe('sportsbook widget on mutated upstream odds', { timeout: 60_000 }, () => {
  it('never flags a three-day-old book, an outlying book or a relabelled game best', async () => {
    const games = replay.data.nbaOdds as Game[];
    const name = (g: Game, side: 'home_team' | 'away_team') => String(g[side]);
    const [magic, wizards, pacers] = [
      name(games[0]!, 'home_team'),
      name(games[1]!, 'home_team'),
      name(games[2]!, 'home_team'),
    ];
    await expect.poll(() => widget(pacers), { timeout: 30_000 }).toBeDefined();
    const before = (await widget(pacers))!;
    expect(row((await widget(magic))!, 'FanDuel')).toBeDefined();

    const h2h = (g: Game, key: string) =>
      g.bookmakers.find((b) => b.key === key)!.markets.find((m) => m.key === 'h2h')!.outcomes;
    // Game 0: FanDuel frozen three days ago, at a home price that would beat every other book.
    const fanduel = games[0]!.bookmakers.find((b) => b.key === 'fanduel')!;
    fanduel.last_update = new Date(Date.now() - 3 * 86_400_000).toISOString().replace('.000Z', 'Z');
    for (const o of h2h(games[0]!, 'fanduel')) if (o.name === magic) o.price = -105;
    // Game 1: DraftKings alone makes the game a pick'em at -110 each (every other book has the road
    // favourite near -200): its road price would beat every other book's.
    for (const o of h2h(games[1]!, 'draftkings')) o.price = -110;
    // Game 2: home and away swapped by the provider.
    [games[2]!.home_team, games[2]!.away_team] = [games[2]!.away_team, games[2]!.home_team];

    // The frozen book is gone once a refresh has read the mutated response.
    await expect.poll(async () => row((await widget(magic))!, 'FanDuel'), { timeout: 30_000 }).toBeUndefined();
    const game0 = (await widget(magic))!;
    expect(game0.odds_matrix.operators.length).toBeGreaterThan(1);
    expect(game0.odds_matrix.operators.some((o) => o.lines.home_moneyline === '-105')).toBe(false);
    flagsFollowFigures(game0, 'home_moneyline');
    // Every book shown is fresh, by its own time.
    for (const o of game0.odds_matrix.operators)
      expect(Date.now() - Date.parse(o.updated_at)).toBeLessThan(30 * 60_000);

    const game1 = (await widget(wizards))!;
    const dk = row(game1, 'DraftKings')!;
    expect([
      dk.lines.home_moneyline,
      dk.lines.away_moneyline,
      dk.best_odds.filter((k) => k.endsWith('moneyline')),
    ]).toEqual([undefined, undefined, []]);
    expect(game1.odds_matrix.operators.some((o) => o.lines.away_moneyline === '-110')).toBe(false);
    flagsFollowFigures(game1, 'away_moneyline');

    // The relabelled game is served as it was last good: same teams, same sides, same lines, same flags.
    const game2 = (await widget(pacers))!;
    expect(game2.match_meta).toEqual(before.match_meta);
    expect(game2.odds_matrix.operators.map((o) => [o.name, o.lines, o.best_odds])).toEqual(
      before.odds_matrix.operators.map((o) => [o.name, o.lines, o.best_odds]),
    );

    // Each is reported in the snapshot's meta (what /readyz shows) with its class.
    const items = (await readMeta(redis.client, 'sportsbook', 'NBA'))!.dropped!.items;
    expect(items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: `odds-api:${String(games[0]!.id)}/fanduel`, class: 'stale' }),
        expect.objectContaining({ id: `${String(games[1]!.id)}/draftkings/h2h`, class: 'outlier' }),
        expect.objectContaining({ id: String(games[2]!.id), class: 'identity' }),
      ]),
    );
  });
});
