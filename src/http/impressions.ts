/** Impressions: counted per operator each time a widget body that shows it is served. */
import { isBot } from '../tracking/bot-filter.js';
import type { Deps } from './deps.js';
import type { CachedBody } from './payload-cache.js';
import type { Request } from './types.js';

/** A 304 is an impression too (the browser shows its copy); HEAD and bots are not. */
export function countImpressions(deps: Deps, req: Request, entry: CachedBody, widget: string, now: Date): void {
  if (req.method === 'GET' && entry.shown.length > 0 && !isBot(req.headers['user-agent'])) deps.impressions.count(entry.shown, widget, now);
}
