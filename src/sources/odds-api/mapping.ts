/**
 * Static mappings for The Odds API: our leagues to its sport keys, its bookmaker keys to our
 * operator ids (books we do not carry are left out), and team names to our team codes.
 */
import { TEAMS } from '../../catalog/teams.js';
import type { League, Team } from '../../model/index.js';
import { foldName } from '../../domain/text.js';

export const SPORT_KEYS: Readonly<Record<League, string>> = {
  NBA: 'basketball_nba',
  NFL: 'americanfootball_nfl',
  NCAAB: 'basketball_ncaab',
  EPL: 'soccer_epl',
};

/** The Odds API bookmaker key → our operator id. williamhill_us is Caesars Sportsbook. */
export const BOOKMAKER_OPERATORS: Readonly<Record<string, string>> = {
  draftkings: 'draftkings',
  fanduel: 'fanduel',
  betmgm: 'betmgm',
  williamhill_us: 'caesars',
  caesars: 'caesars',
  bet365: 'bet365',
  betfair: 'betfair',
  betfair_ex_us: 'betfair',
  betfair_ex_uk: 'betfair',
  betfair_ex_eu: 'betfair',
  fanatics: 'fanatics',
};

const fold = foldName;

/** A team code made from a name we do not know: initials, or the first letters ("Utah Valley" → UV). */
export function deriveCode(name: string, taken: ReadonlySet<string>): string {
  const words = fold(name).toUpperCase().split(' ').filter(Boolean);
  const initials = words.map((w) => w[0]).join('');
  const base = (initials.length >= 2 ? initials : (words[0] ?? 'TM').slice(0, 3)).replace(/^[^A-Z]+/, 'T').slice(0, 5);
  let code = base.length >= 2 ? base : `${base}X`;
  for (let i = 2; taken.has(code); i++) code = `${base.slice(0, 4)}${i}`;
  return code;
}

/** Resolves upstream team names to teams of a league: ours where the name or an alias matches. */
export class TeamResolver {
  private readonly byName = new Map<string, Team>();
  private readonly extra: Team[] = [];
  private readonly codes = new Set<string>();

  constructor(private readonly league: League) {
    for (const t of TEAMS[league]) {
      this.codes.add(t.code);
      for (const n of [t.name, ...t.aliases]) if (!this.byName.has(fold(n))) this.byName.set(fold(n), t);
    }
  }

  /** The team for an upstream name; an unknown name gets a derived code, stable for this resolver. */
  resolve(name: string): Team {
    const known = this.byName.get(fold(name));
    if (known) return known;
    const team: Team = { code: deriveCode(name, this.codes), name, aliases: [] };
    this.codes.add(team.code);
    this.byName.set(fold(name), team);
    this.extra.push(team);
    return team;
  }

  /** The league's teams plus every team met that the catalog does not know. */
  teams(): Team[] {
    return [...TEAMS[this.league].map((t) => ({ ...t, aliases: [...t.aliases] })), ...this.extra];
  }
}
