/** Job: refresh the FX reference rates snapshot (`pw:snap:fx:daily`). */
import type { FxSource } from '../../src/sources/source.js';
import { refreshSnapshot, type RefreshDeps } from '../refresh.js';

export const REFRESH_FX = 'refresh-fx';

export function refreshFx(deps: RefreshDeps, source: FxSource) {
  return () => refreshSnapshot(deps, 'fx', 'daily', (ctx) => source.fetchRates(ctx));
}
