import { describe, expect, it } from 'vitest';
import { matchTeam, type TeamMatch } from '../../src/widgets/team-match.js';
import type { Team } from '../../src/model/index.js';

const TEAMS: Team[] = [
  { code: 'BOS', name: 'Boston Celtics', aliases: ['Boston', 'Celtics'] },
  { code: 'NYK', name: 'New York Knicks', aliases: ['New York', 'Knicks'] },
  { code: 'BKN', name: 'Brooklyn Nets', aliases: ['Brooklyn', 'Nets'] },
  { code: 'MIA', name: 'Miami Heat', aliases: ['Miami', 'Heat'] },
  { code: 'LAL', name: 'Los Angeles Lakers', aliases: ['LA Lakers', 'Lakers'] },
  { code: 'LAC', name: 'Los Angeles Clippers', aliases: ['LA Clippers', 'Clippers'] },
  { code: 'DUKE', name: 'Duke Blue Devils', aliases: ['Duke'] },
  { code: 'ATM', name: 'Atlético Madrid', aliases: ['Atleti'] },
  { code: 'MTL', name: 'CF Montreal', aliases: ['Montreal'] },
];

/** The match as codes: "BOS", "none", or "ambiguous:LAC,LAL" (sorted). */
function summary(m: TeamMatch): string {
  if (m.kind === 'one') return m.team.code;
  if (m.kind === 'none') return 'none';
  return `ambiguous:${m.teams
    .map((t) => t.code)
    .sort()
    .join(',')}`;
}

const match = (text: string) => summary(matchTeam(TEAMS, text));

describe('matchTeam', () => {
  it.each([
    ['BOS', 'BOS'],
    ['bos', 'BOS'],
    ['Boston Celtics', 'BOS'],
    ['BOSTON CELTICS', 'BOS'],
    ['  boston   celtics!! ', 'BOS'],
    ['knicks', 'NYK'],
    ['New-York', 'NYK'],
    ['duke', 'DUKE'],
  ])('exact code, name or alias, any case: %j -> %s', (text, code) => {
    expect(match(text)).toBe(code);
  });

  it('returns the Team object itself', () => {
    const m = matchTeam(TEAMS, 'Heat');
    expect(m).toEqual({ kind: 'one', team: TEAMS[3] });
  });

  it.each([
    // 'los angeles lakers' (18 letters) is in the text; no other team name is
    ['Los Angeles Lakers tickets and odds', 'LAL'],
    ['Preview: the Heat host someone', 'MIA'],
    // code as a whole word
    ['tonight: NYK injury report', 'NYK'],
    // the text inside a name: "blue devils" is whole words of "duke blue devils"
    ['Blue Devils', 'DUKE'],
  ])('whole-word containment of a name, alias or code in the text: %j -> %s', (text, code) => {
    expect(match(text)).toBe(code);
  });

  it('picks the longest matching name when a text names several teams (documented rule)', () => {
    // "celtics" (7) is longer than "knicks" (6): the rule picks Boston, not "ambiguous".
    expect(match('Celtics at Knicks preview')).toBe('BOS');
    // "knicks" (6) beats "nets" (4)
    expect(match('Nets at Knicks')).toBe('NYK');
    // "los angeles lakers" (18) beats "celtics" (7)
    expect(match('Celtics vs Los Angeles Lakers')).toBe('LAL');
  });

  it('is ambiguous when the longest matches tie', () => {
    // "nets" and "heat" are both 4 letters
    expect(match('Nets vs Heat')).toBe('ambiguous:BKN,MIA');
    // "los angeles" is whole words of both Los Angeles names
    expect(match('Los Angeles')).toBe('ambiguous:LAC,LAL');
    // "la" is whole words of "la lakers" and of "la clippers"
    expect(match('LA')).toBe('ambiguous:LAC,LAL');
    // two codes of three letters each
    expect(match('BOS-NYK game thread')).toBe('ambiguous:BOS,NYK');
  });

  it('is ambiguous when an exact alias belongs to two teams', () => {
    const teams: Team[] = [
      { code: 'NYK', name: 'New York Knicks', aliases: ['New York'] },
      { code: 'NYL', name: 'New York Liberty', aliases: ['New York'] },
    ];
    const m = matchTeam(teams, 'new york');
    expect(summary(m)).toBe('ambiguous:NYK,NYL');
  });

  it('an exact match wins over longer containment matches', () => {
    // "boston" is BOS's alias exactly, even though it is not the longest name around
    expect(match('Boston')).toBe('BOS');
  });

  it('matches whole words only', () => {
    expect(match('Netscape Navigator')).toBe('none');
    expect(match('Bostonian tea party')).toBe('none');
    expect(match('bosun')).toBe('none');
    expect(match('Heatwave in Miamisburg')).toBe('none');
  });

  it('ignores accents both ways', () => {
    expect(match('atletico madrid')).toBe('ATM');
    expect(match('ATLÉTICO')).toBe('ATM');
    expect(match('Montréal')).toBe('MTL');
    expect(match('CF Montréal tonight')).toBe('MTL');
  });

  it('gives none for empty, punctuation-only or unrelated text', () => {
    expect(match('')).toBe('none');
    expect(match('   ')).toBe('none');
    expect(match('!!! ---')).toBe('none');
    expect(match('Golden State Warriors')).toBe('none');
  });
});
