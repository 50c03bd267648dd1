/** What every widget builder is given besides its snapshot: pure inputs only. */
import type { Operator } from '../catalog/operator-schema.js';
import type { ClickTarget } from '../tracking/click-links.js';

export interface WidgetContext {
  /** Operator catalog lookup; quotes from operators it does not know are left out. */
  operatorById(id: string): Operator | undefined;
  /** Turns a click target into a signed tracking URL. */
  clickUrl(target: ClickTarget): string;
  /** Unix seconds at which links built now expire. */
  linkExpiresAt: number;
  impressionId: string;
  advertiserId?: string;
  /** The visitor's resolved country (ISO 3166-1 alpha-2 or ZZ), when the route resolved one; links carry it. */
  country?: string;
}
