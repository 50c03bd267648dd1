/** Identifiers and scalar shapes shared by every part of the internal model. */
import { z } from 'zod';

export const IsoTime = z.iso.datetime({ offset: false });

/** Lowercase words joined by hyphens (docs/contract.md, event list). */
export const Slug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
  .max(120);

/** The form of an operator id ("kalshi", "draftkings"). */
export const OPERATOR_ID = /^[a-z][a-z0-9-]{1,39}$/;
export const OperatorId = z.string().regex(OPERATOR_ID);

export const Category = z.enum(['politics', 'economics', 'crypto', 'sports', 'culture']);
export type Category = z.infer<typeof Category>;

export const LEAGUES = ['NCAAB', 'NBA', 'NFL', 'EPL'] as const;
export const League = z.enum(LEAGUES);
export type League = z.infer<typeof League>;

/** Price of a contract that pays $1: decimal dollars strictly between 0 and 1 (0.62 = 62¢). */
export const ContractPrice = z.number().gt(0).lt(1);
