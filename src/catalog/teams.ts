/**
 * Teams per league: code, full name and the other names a publisher's page may use. Aliases are
 * unique within a league (no bare "Los Angeles" or "Wildcats"), so a team_context search isolates
 * one team. Shared by the simulator and the real sportsbook sources, so both use the same codes.
 */
import type { League, Team } from '../model/index.js';

type Row = readonly [code: string, name: string, ...aliases: string[]];

const NBA: readonly Row[] = [
  ['ATL', 'Atlanta Hawks', 'Atlanta', 'Hawks'],
  ['BOS', 'Boston Celtics', 'Boston', 'Celtics', "C's"],
  ['BKN', 'Brooklyn Nets', 'Brooklyn', 'Nets'],
  ['CHA', 'Charlotte Hornets', 'Charlotte', 'Hornets'],
  ['CHI', 'Chicago Bulls', 'Chicago', 'Bulls'],
  ['CLE', 'Cleveland Cavaliers', 'Cleveland', 'Cavaliers', 'Cavs'],
  ['DAL', 'Dallas Mavericks', 'Dallas', 'Mavericks', 'Mavs'],
  ['DEN', 'Denver Nuggets', 'Denver', 'Nuggets'],
  ['DET', 'Detroit Pistons', 'Detroit', 'Pistons'],
  ['GSW', 'Golden State Warriors', 'Golden State', 'Warriors', 'Dubs'],
  ['HOU', 'Houston Rockets', 'Houston', 'Rockets'],
  ['IND', 'Indiana Pacers', 'Indiana', 'Pacers'],
  ['LAC', 'LA Clippers', 'Los Angeles Clippers', 'Clippers'],
  ['LAL', 'Los Angeles Lakers', 'LA Lakers', 'Lakers'],
  ['MEM', 'Memphis Grizzlies', 'Memphis', 'Grizzlies', 'Grizz'],
  ['MIA', 'Miami Heat', 'Miami', 'Heat'],
  ['MIL', 'Milwaukee Bucks', 'Milwaukee', 'Bucks'],
  ['MIN', 'Minnesota Timberwolves', 'Minnesota', 'Timberwolves', 'Wolves'],
  ['NOP', 'New Orleans Pelicans', 'New Orleans', 'Pelicans', 'Pels'],
  ['NYK', 'New York Knicks', 'New York', 'Knicks'],
  ['OKC', 'Oklahoma City Thunder', 'Oklahoma City', 'Thunder'],
  ['ORL', 'Orlando Magic', 'Orlando', 'Magic'],
  ['PHI', 'Philadelphia 76ers', 'Philadelphia', '76ers', 'Sixers'],
  ['PHX', 'Phoenix Suns', 'Phoenix', 'Suns'],
  ['POR', 'Portland Trail Blazers', 'Portland', 'Trail Blazers', 'Blazers'],
  ['SAC', 'Sacramento Kings', 'Sacramento', 'Kings'],
  ['SAS', 'San Antonio Spurs', 'San Antonio', 'Spurs'],
  ['TOR', 'Toronto Raptors', 'Toronto', 'Raptors'],
  ['UTA', 'Utah Jazz', 'Utah', 'Jazz'],
  ['WAS', 'Washington Wizards', 'Washington', 'Wizards'],
];

const NFL: readonly Row[] = [
  ['ARI', 'Arizona Cardinals', 'Arizona', 'Cardinals'],
  ['ATL', 'Atlanta Falcons', 'Atlanta', 'Falcons'],
  ['BAL', 'Baltimore Ravens', 'Baltimore', 'Ravens'],
  ['BUF', 'Buffalo Bills', 'Buffalo', 'Bills'],
  ['CAR', 'Carolina Panthers', 'Carolina', 'Panthers'],
  ['CHI', 'Chicago Bears', 'Chicago', 'Bears'],
  ['CIN', 'Cincinnati Bengals', 'Cincinnati', 'Bengals'],
  ['CLE', 'Cleveland Browns', 'Cleveland', 'Browns'],
  ['DAL', 'Dallas Cowboys', 'Dallas', 'Cowboys'],
  ['DEN', 'Denver Broncos', 'Denver', 'Broncos'],
  ['DET', 'Detroit Lions', 'Detroit', 'Lions'],
  ['GB', 'Green Bay Packers', 'Green Bay', 'Packers'],
  ['HOU', 'Houston Texans', 'Houston', 'Texans'],
  ['IND', 'Indianapolis Colts', 'Indianapolis', 'Colts'],
  ['JAX', 'Jacksonville Jaguars', 'Jacksonville', 'Jaguars', 'Jags'],
  ['KC', 'Kansas City Chiefs', 'Kansas City', 'Chiefs'],
  ['LV', 'Las Vegas Raiders', 'Las Vegas', 'Raiders'],
  ['LAC', 'Los Angeles Chargers', 'LA Chargers', 'Chargers', 'Bolts'],
  ['LAR', 'Los Angeles Rams', 'LA Rams', 'Rams'],
  ['MIA', 'Miami Dolphins', 'Miami', 'Dolphins', 'Fins'],
  ['MIN', 'Minnesota Vikings', 'Minnesota', 'Vikings'],
  ['NE', 'New England Patriots', 'New England', 'Patriots', 'Pats'],
  ['NO', 'New Orleans Saints', 'New Orleans', 'Saints'],
  ['NYG', 'New York Giants', 'NY Giants', 'Giants'],
  ['NYJ', 'New York Jets', 'NY Jets', 'Jets'],
  ['PHI', 'Philadelphia Eagles', 'Philadelphia', 'Eagles', 'Philly'],
  ['PIT', 'Pittsburgh Steelers', 'Pittsburgh', 'Steelers'],
  ['SF', 'San Francisco 49ers', 'San Francisco', '49ers', 'Niners'],
  ['SEA', 'Seattle Seahawks', 'Seattle', 'Seahawks'],
  ['TB', 'Tampa Bay Buccaneers', 'Tampa Bay', 'Buccaneers', 'Bucs'],
  ['TEN', 'Tennessee Titans', 'Tennessee', 'Titans'],
  ['WAS', 'Washington Commanders', 'Washington', 'Commanders'],
];

const EPL: readonly Row[] = [
  ['ARS', 'Arsenal', 'Gunners'],
  ['AVL', 'Aston Villa', 'Villa'],
  ['BOU', 'AFC Bournemouth', 'Bournemouth', 'Cherries'],
  ['BRE', 'Brentford', 'Bees'],
  ['BHA', 'Brighton & Hove Albion', 'Brighton', 'Seagulls'],
  ['BUR', 'Burnley', 'Clarets'],
  ['CHE', 'Chelsea'],
  ['CRY', 'Crystal Palace', 'Palace', 'Eagles'],
  ['EVE', 'Everton', 'Toffees'],
  ['FUL', 'Fulham', 'Cottagers'],
  ['LEE', 'Leeds United', 'Leeds'],
  ['LIV', 'Liverpool'],
  ['MCI', 'Manchester City', 'Man City', 'City'],
  ['MUN', 'Manchester United', 'Man United', 'Man Utd'],
  ['NEW', 'Newcastle United', 'Newcastle', 'Magpies'],
  ['NFO', 'Nottingham Forest', "Nott'm Forest", 'Forest'],
  ['SUN', 'Sunderland', 'Black Cats'],
  ['TOT', 'Tottenham Hotspur', 'Tottenham', 'Spurs'],
  ['WHU', 'West Ham United', 'West Ham', 'Hammers'],
  ['WOL', 'Wolverhampton Wanderers', 'Wolves', 'Wolverhampton'],
];

const NCAAB: readonly Row[] = [
  ['DUKE', 'Duke Blue Devils', 'Duke', 'Blue Devils'],
  ['UNC', 'North Carolina Tar Heels', 'North Carolina', 'Tar Heels'],
  ['UK', 'Kentucky Wildcats', 'Kentucky'],
  ['KU', 'Kansas Jayhawks', 'Kansas', 'Jayhawks'],
  ['GONZ', 'Gonzaga Bulldogs', 'Gonzaga', 'Zags'],
  ['UCLA', 'UCLA Bruins', 'Bruins'],
  ['ARIZ', 'Arizona Wildcats', 'Arizona'],
  ['HOU', 'Houston Cougars', 'Houston'],
  ['PUR', 'Purdue Boilermakers', 'Purdue', 'Boilermakers'],
  ['UCONN', 'UConn Huskies', 'UConn', 'Connecticut'],
  ['BAY', 'Baylor Bears', 'Baylor'],
  ['TENN', 'Tennessee Volunteers', 'Tennessee', 'Vols'],
  ['AUB', 'Auburn Tigers', 'Auburn'],
  ['ALA', 'Alabama Crimson Tide', 'Alabama', 'Crimson Tide'],
  ['MSU', 'Michigan State Spartans', 'Michigan State', 'Spartans'],
  ['MICH', 'Michigan Wolverines', 'Michigan', 'Wolverines'],
  ['ILL', 'Illinois Fighting Illini', 'Illinois', 'Illini'],
  ['IU', 'Indiana Hoosiers', 'Indiana', 'Hoosiers'],
  ['VILL', 'Villanova Wildcats', 'Villanova', 'Nova'],
  ['MARQ', 'Marquette Golden Eagles', 'Marquette'],
  ['CREI', 'Creighton Bluejays', 'Creighton', 'Bluejays'],
  ['ARK', 'Arkansas Razorbacks', 'Arkansas', 'Razorbacks', 'Hogs'],
  ['TTU', 'Texas Tech Red Raiders', 'Texas Tech', 'Red Raiders'],
  ['SJU', "St. John's Red Storm", "St. John's", 'Red Storm'],
];

const toTeams = (rows: readonly Row[]): Team[] =>
  rows.map(([code, name, ...aliases]) => ({ code, name, aliases }));

/** Every team of each league, in a stable order. */
export const TEAMS: Readonly<Record<League, readonly Team[]>> = {
  NBA: toTeams(NBA),
  NFL: toTeams(NFL),
  EPL: toTeams(EPL),
  NCAAB: toTeams(NCAAB),
};
