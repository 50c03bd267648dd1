/**
 * The prediction-market events the simulator lists. Each template rolls forward with the clock
 * (next Fed meeting, next year-end, next ceremony), so closesAt is always ahead of `now` and a slug
 * only changes when its real-world edition would.
 */
import type { Category } from '../../model/index.js';
import { kalshiDateCode, monthName, monthTitle, nextAnnual, utc, weekdayOnOrAfter } from './calendar.js';

export interface OutcomeTemplate {
  name: string;
  /** Editorial prior probability; normalized per event, then drifted. */
  prior: number;
  /** Venues listing this outcome, when not all of the event's venues do. */
  venues?: readonly string[];
}

export interface EventInstance {
  slug: string;
  question: string;
  closesAt: Date;
  /** Date encoded in the Kalshi event ticker, when not closesAt (CPI uses the reference month). */
  tickerDate?: Date;
}

export interface EventTemplate {
  category: Category;
  /** Binary markets have outcomes Yes and No (the No quote is the NO contract's price). */
  binary: boolean;
  outcomes: readonly OutcomeTemplate[];
  /** Venues (catalog operator ids) listing the event. */
  venues: readonly string[];
  /** Kalshi series ticker, web-page segment and ticker date form. */
  kalshi?: { series: string; page: string; code: 'yy' | 'yyyy' | 'month' | 'day' };
  /** Typical 24-hour volume of the whole event across venues, USD. */
  volumeUsd: number;
  /** Price tied to a live asset: faster short-term moves. */
  hot?: boolean;
  instance(now: Date): EventInstance;
}

/** Outcomes of a binary market with a YES prior. */
function yesNo(pYes: number): OutcomeTemplate[] {
  return [
    { name: 'Yes', prior: pYes },
    { name: 'No', prior: 1 - pYes },
  ];
}

/** Ticker suffix in Kalshi's style for a template's code form. */
export function kalshiTicker(t: EventTemplate, d: Date): string | undefined {
  if (!t.kalshi) return undefined;
  const { series, code } = t.kalshi;
  const yyyy = String(d.getUTCFullYear());
  const suffix = code === 'yyyy' ? yyyy : code === 'yy' ? yyyy.slice(2) : kalshiDateCode(d, code === 'day');
  return `${series}-${suffix}`;
}

// FOMC decision days (second day of each meeting), reused every year.
const FOMC_DAYS: readonly (readonly [number, number])[] = [
  [1, 28],
  [3, 18],
  [4, 29],
  [6, 17],
  [7, 29],
  [9, 16],
  [10, 28],
  [12, 9],
];

function nextFomc(now: Date): Date {
  for (let y = now.getUTCFullYear(); ; y++) {
    for (const [m, d] of FOMC_DAYS) {
      const at = utc(y, m, d, 19, 0);
      if (at > now) return at;
    }
  }
}

/** US election day: the Tuesday after the first Monday of November. */
function electionDay(year: number): Date {
  const d = weekdayOnOrAfter(year, 11, 2, 2);
  return utc(year, 11, d.getUTCDate(), 23, 59);
}

function nextElectionYear(now: Date, leadDays: number): number {
  const d = nextAnnual(now, (y) => electionDay(y + ((4 - (y % 4)) % 4)), leadDays);
  return d.getUTCFullYear();
}

const yearEnd = (y: number): Date => utc(y, 12, 31, 23, 59);

export const EVENT_TEMPLATES: readonly EventTemplate[] = [
  // ------------------------------------------------------------ politics
  {
    category: 'politics',
    binary: false,
    outcomes: [
      { name: 'Democratic Party', prior: 0.52 },
      { name: 'Republican Party', prior: 0.46 },
      { name: 'Another party', prior: 0.02, venues: ['kalshi', 'polymarket'] },
    ],
    venues: ['kalshi', 'polymarket', 'forecastex'],
    kalshi: { series: 'KXPRESPARTY', page: 'presidential-election-party-winner', code: 'yyyy' },
    volumeUsd: 2_500_000,
    instance(now) {
      const y = nextElectionYear(now, 0);
      return {
        slug: `presidential-election-winner-${y}`,
        question: `Which party will win the ${y} US presidential election?`,
        closesAt: electionDay(y),
      };
    },
  },
  {
    category: 'politics',
    binary: false,
    outcomes: [
      { name: 'Gavin Newsom', prior: 0.3 },
      { name: 'Alexandria Ocasio-Cortez', prior: 0.12 },
      { name: 'Josh Shapiro', prior: 0.1 },
      { name: 'Pete Buttigieg', prior: 0.09 },
      { name: 'JB Pritzker', prior: 0.06 },
      { name: 'Wes Moore', prior: 0.05, venues: ['polymarket', 'limitless'] },
    ],
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXPRESNOMD', page: 'democratic-primary-winner', code: 'yyyy' },
    volumeUsd: 1_200_000,
    instance(now) {
      // The nomination is settled at the convention, in August of the election year.
      const y = nextElectionYear(now, 90);
      return {
        slug: `democratic-presidential-nominee-${y}`,
        question: `Who will be the Democratic nominee for the ${y} US presidential election?`,
        closesAt: utc(y, 8, 20, 23, 59),
      };
    },
  },
  {
    category: 'politics',
    binary: true,
    outcomes: yesNo(0.22),
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXGOVSHUT', page: 'government-shutdown', code: 'day' },
    volumeUsd: 400_000,
    instance(now) {
      // Funding deadlines: the fiscal year end and the usual late-January continuing resolution.
      const jan = nextAnnual(now, (y) => utc(y, 1, 30, 23, 59), 7);
      const sep = nextAnnual(now, (y) => utc(y, 9, 30, 23, 59), 7);
      const at = jan < sep ? jan : sep;
      const day = at.getUTCDate();
      return {
        slug: `government-shutdown-before-${monthName(at)}-${day}-${at.getUTCFullYear()}`,
        question: `Will the US federal government shut down before ${monthTitle(at)} ${day}, ${at.getUTCFullYear()}?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'politics',
    binary: true,
    outcomes: yesNo(0.34),
    // Not listed on Kalshi: a UK question, traded on the crypto venues.
    venues: ['polymarket', 'limitless'],
    volumeUsd: 180_000,
    instance(now) {
      const at = nextAnnual(now, yearEnd, 60);
      const y = at.getUTCFullYear();
      return {
        slug: `starmer-out-as-uk-prime-minister-by-end-of-${y}`,
        question: `Will Keir Starmer cease to be UK Prime Minister before the end of ${y}?`,
        closesAt: at,
      };
    },
  },
  // ------------------------------------------------------------ economics
  {
    category: 'economics',
    binary: false,
    outcomes: [
      { name: 'Cut 50+ bps', prior: 0.05 },
      { name: 'Cut 25 bps', prior: 0.32 },
      { name: 'No change', prior: 0.6 },
      { name: 'Hike 25+ bps', prior: 0.03, venues: ['kalshi', 'polymarket'] },
    ],
    venues: ['kalshi', 'polymarket', 'forecastex'],
    kalshi: { series: 'KXFEDDECISION', page: 'fed-meeting', code: 'month' },
    volumeUsd: 6_000_000,
    instance(now) {
      const at = nextFomc(now);
      const m = monthName(at);
      return {
        slug: `fed-${m}-${at.getUTCFullYear()}`,
        question: `What will the Fed decide at its ${monthTitle(at)} ${at.getUTCFullYear()} meeting?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'economics',
    binary: false,
    outcomes: [
      { name: 'Below 2.6%', prior: 0.18 },
      { name: '2.6% to 2.8%', prior: 0.37 },
      { name: '2.9% to 3.1%', prior: 0.33 },
      { name: 'Above 3.1%', prior: 0.12 },
    ],
    // Not on Polymarket: the regulated exchanges list the CPI brackets.
    venues: ['kalshi', 'forecastex'],
    kalshi: { series: 'KXCPIYOY', page: 'inflation', code: 'month' },
    volumeUsd: 350_000,
    instance(now) {
      // CPI for a month is released around the 12th of the next month, 08:30 ET.
      let release = utc(now.getUTCFullYear(), now.getUTCMonth() + 1, 12, 13, 30);
      if (release <= now) release = utc(now.getUTCFullYear(), now.getUTCMonth() + 2, 12, 13, 30);
      const ref = utc(release.getUTCFullYear(), release.getUTCMonth(), 1);
      return {
        slug: `us-cpi-inflation-${monthName(ref)}-${ref.getUTCFullYear()}`,
        question: `What will US CPI inflation (year over year) be for ${monthTitle(ref)} ${ref.getUTCFullYear()}?`,
        closesAt: release,
        tickerDate: ref,
      };
    },
  },
  {
    category: 'economics',
    binary: true,
    outcomes: yesNo(0.27),
    venues: ['kalshi', 'polymarket', 'forecastex'],
    kalshi: { series: 'KXRECSSNBER', page: 'recession', code: 'yy' },
    volumeUsd: 260_000,
    instance(now) {
      const at = nextAnnual(now, yearEnd, 60);
      const y = at.getUTCFullYear();
      return { slug: `us-recession-in-${y}`, question: `Will the US enter a recession in ${y}?`, closesAt: at };
    },
  },
  // ------------------------------------------------------------ crypto
  {
    category: 'crypto',
    binary: true,
    outcomes: yesNo(0.11),
    venues: ['kalshi', 'polymarket', 'limitless'],
    kalshi: { series: 'KXBTCY', page: 'bitcoin-price-end-of-year', code: 'day' },
    volumeUsd: 1_600_000,
    hot: true,
    instance(now) {
      const at = nextAnnual(now, yearEnd);
      const y = at.getUTCFullYear();
      return {
        slug: `bitcoin-above-150k-end-of-${y}`,
        question: `Will Bitcoin be above $150,000 on December 31, ${y}?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'crypto',
    binary: true,
    outcomes: yesNo(0.14),
    venues: ['kalshi', 'polymarket', 'limitless'],
    kalshi: { series: 'KXETHY', page: 'ethereum-price-end-of-year', code: 'day' },
    volumeUsd: 650_000,
    hot: true,
    instance(now) {
      const at = nextAnnual(now, yearEnd);
      const y = at.getUTCFullYear();
      return {
        slug: `ethereum-above-5000-end-of-${y}`,
        question: `Will Ethereum be above $5,000 on December 31, ${y}?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'crypto',
    binary: false,
    outcomes: [
      { name: 'Below $100', prior: 0.12, venues: ['polymarket', 'limitless'] },
      { name: '$100 to $150', prior: 0.3 },
      { name: '$150 to $200', prior: 0.33 },
      { name: '$200 to $250', prior: 0.17 },
      { name: 'Above $250', prior: 0.08 },
    ],
    venues: ['kalshi', 'polymarket', 'limitless'],
    kalshi: { series: 'KXSOLY', page: 'solana-price-end-of-year', code: 'day' },
    volumeUsd: 220_000,
    hot: true,
    instance(now) {
      const at = nextAnnual(now, yearEnd);
      const y = at.getUTCFullYear();
      return {
        slug: `solana-price-end-of-${y}`,
        question: `What will the price of Solana be on December 31, ${y}?`,
        closesAt: at,
      };
    },
  },
  // ------------------------------------------------------------ sports
  {
    category: 'sports',
    binary: false,
    outcomes: [
      { name: 'Kansas City Chiefs', prior: 0.14 },
      { name: 'Philadelphia Eagles', prior: 0.13 },
      { name: 'Buffalo Bills', prior: 0.12 },
      { name: 'Baltimore Ravens', prior: 0.11 },
      { name: 'Detroit Lions', prior: 0.1 },
      { name: 'Los Angeles Rams', prior: 0.08, venues: ['kalshi', 'polymarket'] },
    ],
    venues: ['kalshi', 'polymarket', 'limitless'],
    kalshi: { series: 'KXSB', page: 'super-bowl', code: 'yy' },
    volumeUsd: 3_000_000,
    instance(now) {
      // Super Bowl Sunday: the second Sunday of February.
      const at = nextAnnual(now, (y) => {
        const d = weekdayOnOrAfter(y, 2, 8, 0);
        return utc(y, 2, d.getUTCDate(), 23, 30);
      });
      const y = at.getUTCFullYear();
      return { slug: `super-bowl-${y}-winner`, question: `Who will win the ${y} Super Bowl?`, closesAt: at };
    },
  },
  {
    category: 'sports',
    binary: false,
    outcomes: [
      { name: 'Oklahoma City Thunder', prior: 0.3 },
      { name: 'Denver Nuggets', prior: 0.12 },
      { name: 'Cleveland Cavaliers', prior: 0.12 },
      { name: 'New York Knicks', prior: 0.1 },
      { name: 'Houston Rockets', prior: 0.08 },
    ],
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXNBA', page: 'nba-championship', code: 'yy' },
    volumeUsd: 900_000,
    instance(now) {
      const at = nextAnnual(now, (y) => utc(y, 6, 20, 3, 0));
      const y = at.getUTCFullYear();
      return { slug: `nba-champion-${y}`, question: `Who will win the ${y} NBA Finals?`, closesAt: at };
    },
  },
  {
    category: 'sports',
    binary: false,
    outcomes: [
      { name: 'Arsenal', prior: 0.32 },
      { name: 'Liverpool', prior: 0.24 },
      { name: 'Manchester City', prior: 0.25 },
      { name: 'Chelsea', prior: 0.1 },
      { name: 'Aston Villa', prior: 0.04, venues: ['polymarket', 'limitless'] },
    ],
    venues: ['kalshi', 'polymarket', 'limitless'],
    kalshi: { series: 'KXEPLWINNER', page: 'premier-league-winner', code: 'yy' },
    volumeUsd: 320_000,
    instance(now) {
      const at = nextAnnual(now, (y) => utc(y, 5, 24, 17, 0));
      const y = at.getUTCFullYear();
      return {
        slug: `premier-league-winner-${y - 1}-${String(y).slice(2)}`,
        question: `Who will win the ${y - 1}-${String(y).slice(2)} Premier League?`,
        closesAt: at,
      };
    },
  },
  // ------------------------------------------------------------ culture
  {
    category: 'culture',
    binary: false,
    outcomes: [
      { name: 'The Odyssey', prior: 0.3 },
      { name: 'The Social Reckoning', prior: 0.2 },
      { name: 'Dune: Part Three', prior: 0.12 },
      { name: 'Digger', prior: 0.1 },
      { name: 'Project Hail Mary', prior: 0.07 },
      { name: "Narnia: The Magician's Nephew", prior: 0.05, venues: ['polymarket', 'limitless'] },
    ],
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXOSCARPIC', page: 'oscar-best-picture', code: 'yy' },
    volumeUsd: 280_000,
    instance(now) {
      // The ceremony is on a Sunday in mid-March; the market closes as it starts (evening US time).
      const at = nextAnnual(now, (y) => {
        const d = weekdayOnOrAfter(y, 3, 8, 0);
        return utc(y, 3, d.getUTCDate(), 23, 0);
      });
      const y = at.getUTCFullYear();
      return {
        slug: `oscars-${y}-best-picture`,
        question: `Which film will win Best Picture at the ${y} Oscars?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'culture',
    binary: false,
    outcomes: [
      { name: 'Donald Trump', prior: 0.3 },
      { name: 'Pope Leo XIV', prior: 0.18 },
      { name: 'Jensen Huang', prior: 0.14 },
      { name: 'Sam Altman', prior: 0.1 },
      { name: 'Elon Musk', prior: 0.08 },
    ],
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXTIMEPOY', page: 'time-person-of-the-year', code: 'yy' },
    volumeUsd: 520_000,
    instance(now) {
      const at = nextAnnual(now, (y) => {
        const d = weekdayOnOrAfter(y, 12, 6, 3);
        return utc(y, 12, d.getUTCDate(), 12, 0);
      });
      const y = at.getUTCFullYear();
      return {
        slug: `time-person-of-the-year-${y}`,
        question: `Who will be TIME Person of the Year ${y}?`,
        closesAt: at,
      };
    },
  },
  {
    category: 'culture',
    binary: false,
    outcomes: [
      { name: 'Bad Bunny', prior: 0.38 },
      { name: 'Taylor Swift', prior: 0.36 },
      { name: 'The Weeknd', prior: 0.11 },
      { name: 'Drake', prior: 0.06, venues: ['polymarket', 'limitless'] },
    ],
    venues: ['kalshi', 'polymarket'],
    kalshi: { series: 'KXSPOTIFYARTIST', page: 'spotify-top-artist', code: 'yy' },
    volumeUsd: 410_000,
    instance(now) {
      // Spotify Wrapped lands in the first week of December.
      const at = nextAnnual(now, (y) => {
        const d = weekdayOnOrAfter(y, 12, 1, 3);
        return utc(y, 12, d.getUTCDate(), 14, 0);
      });
      const y = at.getUTCFullYear();
      return {
        slug: `spotify-top-artist-${y}`,
        question: `Who will be Spotify's most-streamed artist worldwide in ${y}?`,
        closesAt: at,
      };
    },
  },
];

/**
 * The slug the simulator lists at `now` for the event of Kalshi series `series` (KXFEDDECISION: the
 * next Fed meeting). Slugs roll with the calendar, so an example or a test that names an event
 * asks for it here rather than writing one down that a later day no longer serves.
 */
export function simulatorSlug(series: string, now: Date): string {
  const template = EVENT_TEMPLATES.find((t) => t.kalshi?.series === series);
  if (!template) throw new Error(`no simulator event of Kalshi series ${series}`);
  return template.instance(now).slug;
}
