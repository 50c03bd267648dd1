/** Finds the team a publisher's `team_context` text names: by code, name or alias, any case. */
import type { Team } from '../model/index.js';
import { foldName } from '../domain/text.js';

const normalize = foldName;

const containsWords = (haystack: string, needle: string) => needle !== '' && ` ${haystack} `.includes(` ${needle} `);

interface PreparedTeam {
  team: Team;
  /** Folded code. */
  code: string;
  /** Folded name and aliases. */
  names: string[];
}

// Folded once per team list (one per snapshot), not once per request.
const preparedLists = new WeakMap<readonly Team[], PreparedTeam[]>();

function prepare(teams: readonly Team[]): PreparedTeam[] {
  let prepared = preparedLists.get(teams);
  if (!prepared) {
    prepared = teams.map((team) => ({
      team,
      code: normalize(team.code),
      names: [team.name, ...team.aliases].map(normalize),
    }));
    preparedLists.set(teams, prepared);
  }
  return prepared;
}

export type TeamMatch = { kind: 'one'; team: Team } | { kind: 'none' } | { kind: 'ambiguous'; teams: Team[] };

/**
 * Matches `text` against teams. An exact code, name or alias wins; otherwise a team whose name or
 * alias appears as whole words in the text (a page title like "Celtics at Knicks preview"), or
 * whose name contains the text as whole words ("Duke" in "Duke Blue Devils"). When several teams
 * match, the longest matching name decides; a tie is ambiguous.
 */
export function matchTeam(teams: readonly Team[], text: string): TeamMatch {
  const q = normalize(text);
  if (q === '') return { kind: 'none' };
  const prepared = prepare(teams);
  const exact = prepared.filter((p) => p.code === q || p.names.includes(q)).map((p) => p.team);
  if (exact.length === 1) return { kind: 'one', team: exact[0]! };
  if (exact.length > 1) return { kind: 'ambiguous', teams: exact };

  let best: Team[] = [];
  let bestLen = 0;
  for (const { team, names } of prepared) {
    const len = Math.max(
      0,
      ...names.filter((n) => containsWords(q, n)).map((n) => n.length),
      ...names.filter((n) => containsWords(n, q)).map(() => q.length),
      containsWords(q, team.code.toLowerCase()) ? team.code.length : 0,
    );
    if (len === 0) continue;
    if (len > bestLen) {
      best = [team];
      bestLen = len;
    } else if (len === bestLen) {
      best.push(team);
    }
  }
  if (best.length === 1) return { kind: 'one', team: best[0]! };
  return best.length === 0 ? { kind: 'none' } : { kind: 'ambiguous', teams: best };
}
