/**
 * The reviewed event catalog shipped with the service. Seeded from the recorded Kalshi and
 * Polymarket listings of early March 2026 (test/fixtures/recorded), so a replay of those responses
 * serves real prices. Add entries only after a person has read both venues' rules; the matcher
 * (`npm run match-markets`) proposes candidates, it never writes here.
 */
import type { z } from 'zod';
import type { CatalogEvent } from './schema.js';

const REVIEW = { by: 'predictwire data desk', on: '2026-03-01' };

/** Raw entries; `loadEventCatalog` validates them. */
export const CATALOG_DATA: z.input<typeof CatalogEvent>[] = [
  {
    slug: 'khamenei-out-by-end-of-february-2026',
    question: 'Will Ali Khamenei be out as Supreme Leader of Iran by the end of February 2026?',
    category: 'politics',
    // Polymarket's deadline (February 28, 11:59 PM ET), the earlier of the two.
    closesAt: '2026-03-01T04:59:00.000Z',
    outcomes: [
      {
        name: 'Yes',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXKHAMENEIOUT-AKHA-26MAR01',
            title: 'Will Ali Khamenei leave office before 2026-03-01T15:00:00.000Z?',
          },
          {
            operator: 'polymarket',
            eventSlug: 'khamenei-out-as-supreme-leader-of-iran-by-february-28',
            marketSlug: 'khamenei-out-as-supreme-leader-of-iran-by-february-28',
            title: 'Khamenei out as Supreme Leader of Iran by February 28?',
            conditionId: '0xd4bbf7f6707c67beb736135ad32a41f6db41f8ae52d3ac4919650de9eeb94ed8',
          },
        ],
      },
      {
        name: 'No',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXKHAMENEIOUT-AKHA-26MAR01',
            title: 'Will Ali Khamenei leave office before 2026-03-01T15:00:00.000Z?',
            invert: true,
          },
          {
            operator: 'polymarket',
            eventSlug: 'khamenei-out-as-supreme-leader-of-iran-by-february-28',
            marketSlug: 'khamenei-out-as-supreme-leader-of-iran-by-february-28',
            conditionId: '0xd4bbf7f6707c67beb736135ad32a41f6db41f8ae52d3ac4919650de9eeb94ed8',
            title: 'Khamenei out as Supreme Leader of Iran by February 28?',
            invert: true,
          },
        ],
      },
    ],
    resolutionNote:
      'Kalshi: "leaves office before March 1, 2026" (15:00 UTC); if he leaves solely by dying, the market settles at the last traded price before the death, not Yes. Polymarket: Yes if removed from power for any length of time by February 28, 2026, 11:59 PM ET (resigns, detained, otherwise loses or cannot exercise the position), by consensus of credible reporting. The two can settle differently; prices are not an arbitrage.',
    reviewed: REVIEW,
  },
  {
    slug: 'us-iran-nuclear-deal-2026',
    question: 'When will the US agree to a new Iranian nuclear deal?',
    category: 'politics',
    closesAt: '2027-01-01T15:00:00.000Z',
    // Deadlines, earliest first: each implies the next.
    nested: true,
    outcomes: [
      {
        name: 'Before April 2026',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXUSAIRANAGREEMENT-27-26APR',
            title: 'Will the US agree to a new Iranian nuclear deal before April?',
          },
        ],
      },
      {
        name: 'Before August 2026',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXUSAIRANAGREEMENT-27-26AUG',
            title: 'Will the US agree to a new Iranian nuclear deal before August?',
          },
        ],
      },
      {
        name: 'Before 2027',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXUSAIRANAGREEMENT-27',
            title: 'Will the US agree to a new Iranian nuclear deal this year?',
          },
        ],
      },
    ],
    reviewed: REVIEW,
  },
  {
    slug: 'us-recognizes-reza-pahlavi-2026',
    question: 'Will the United States recognize Reza Pahlavi as the leader of Iran in 2026?',
    category: 'politics',
    closesAt: '2027-01-01T04:59:00.000Z',
    outcomes: [
      {
        name: 'Yes',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXRECOGPERSONIRAN-26',
            title: 'Will the United States recognize Reza Pahlavi as the leader of Iran in 2026?',
          },
        ],
      },
      {
        name: 'No',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXRECOGPERSONIRAN-26',
            title: 'Will the United States recognize Reza Pahlavi as the leader of Iran in 2026?',
            invert: true,
          },
        ],
      },
    ],
    reviewed: REVIEW,
  },
  {
    slug: 'iran-democracy-index-2026',
    question: 'Will Iran score at least 6 in the EIU Democracy Index 2026?',
    category: 'politics',
    closesAt: '2027-03-01T14:59:00.000Z',
    outcomes: [
      {
        name: 'Yes',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXIRANDEMOCRACY-27MAR01-T6',
            title:
              "Will Iran's score in the Economist Intelligence Unit's Democracy Index be at least 6 in the 2026 edition?",
          },
        ],
      },
      {
        name: 'No',
        refs: [
          {
            operator: 'kalshi',
            ticker: 'KXIRANDEMOCRACY-27MAR01-T6',
            title:
              "Will Iran's score in the Economist Intelligence Unit's Democracy Index be at least 6 in the 2026 edition?",
            invert: true,
          },
        ],
      },
    ],
    reviewed: REVIEW,
  },
  {
    slug: 'iran-israel-us-conflict-ends-march-2026',
    question: 'When will the Iran x Israel/US conflict end?',
    category: 'politics',
    closesAt: '2026-03-31T00:00:00.000Z',
    // Deadlines, earliest first: each implies the next.
    nested: true,
    outcomes: [
      {
        name: 'By March 7',
        refs: [
          {
            operator: 'polymarket',
            eventSlug: 'iran-x-israelus-conflict-ends-by',
            marketSlug: 'iran-x-israelus-conflict-ends-by-march-7',
            conditionId: '0x4fad2d024d0a82efa02dcef616a30739eb6cb5c5f088ec92a4ffbc7bda6f69b1',
            title: 'Iran x Israel/US conflict ends by March 7?',
          },
        ],
      },
      {
        name: 'By March 15',
        refs: [
          {
            operator: 'polymarket',
            eventSlug: 'iran-x-israelus-conflict-ends-by',
            marketSlug: 'iran-x-israelus-conflict-ends-by-march-15',
            conditionId: '0xc5dee81018bb9a94aeeae933e3824b534fad8aaadbd342c2a518e1eddbf88593',
            title: 'Iran x Israel/US conflict ends by March 15?',
          },
        ],
      },
      {
        name: 'By March 31',
        refs: [
          {
            operator: 'polymarket',
            eventSlug: 'iran-x-israelus-conflict-ends-by',
            marketSlug: 'iran-x-israelus-conflict-ends-by-march-31',
            conditionId: '0x5a200d7d560169d60dc82cd16bb14c16f36f029fdf609dcb92d06a554f9f0fe1',
            title: 'Iran x Israel/US conflict ends by March 31?',
          },
        ],
      },
    ],
    resolutionNote:
      'Polymarket requires a continuous 14-day period without qualifying military action starting by the date; no Kalshi market with the same rule was found.',
    reviewed: REVIEW,
  },
];
