/** Finds the team a publisher's `team_context` text names: by code, name or alias, any case. */
import type { Team } from '../store/schemas.js';
import { foldName } from '../domain/text.js';

const normalize = foldName;

const containsWords = (haystack: string, needle: string) => needle !== '' && ` ${haystack} `.includes(` ${needle} `);

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
  const exact = teams.filter((t) => [t.code, t.name, ...t.aliases].some((n) => normalize(n) === q));
  if (exact.length === 1) return { kind: 'one', team: exact[0]! };
  if (exact.length > 1) return { kind: 'ambiguous', teams: exact };

  let best: Team[] = [];
  let bestLen = 0;
  for (const team of teams) {
    const names = [team.name, ...team.aliases].map(normalize);
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
