/** The languages promo and call-to-action copy is written in (docs/contract.md, broad widget `locale`). */
import { z } from 'zod';

export const LOCALES = ['en', 'es', 'de', 'fr', 'pt'] as const;
export const Locale = z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;
