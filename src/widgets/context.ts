/** What every widget builder is given besides its snapshot: pure inputs only. */
import type { ShownOperators } from '../catalog/shown-operators.js';
import type { ClickTarget } from '../tracking/click-links.js';

export interface WidgetContext extends ShownOperators {
  /** Turns a click target into a signed tracking URL. */
  clickUrl(target: ClickTarget): string;
  /** Unix seconds at which links built now expire. */
  linkExpiresAt: number;
  impressionId: string;
  advertiserId?: string;
}
