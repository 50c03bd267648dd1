/** What every widget builder is given besides its snapshot: pure inputs only. */
import type { ShownOperators } from '../catalog/shown-operators.js';
import type { ClickTarget } from '../tracking/click-links.js';
import type { ImpressionWidget } from '../tracking/impression-links.js';

export interface WidgetContext extends ShownOperators {
  /** Turns a click target into a signed tracking URL. */
  clickUrl(target: ClickTarget): string;
  /** The signed impression URL of a payload showing `operatorIds` (null for none). */
  impressionUrl(widget: ImpressionWidget, operatorIds: readonly string[]): string | null;
  /** Unix seconds at which links built now expire. */
  linkExpiresAt: number;
  impressionId: string;
  advertiserId?: string;
}
