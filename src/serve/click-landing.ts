/**
 * Where a verified click goes. A link is signed for one operator, widget and jurisdiction; by the
 * time it is followed (links live a week) the operator may have been suspended there, or the rules
 * changed: the link is checked against this process's catalog view (in memory, no Redis), on the
 * surface it was shown on, and lands on the operator only while it may still be shown there.
 */
import { catalogView, type Surface } from '../catalog/shown-operators.js';
import type { Operator } from '../catalog/operator-schema.js';
import { operatorSites } from '../catalog/operator-sites.js';
import { UNKNOWN_COUNTRY } from '../model/jurisdiction.js';
import type { SnapshotCache } from '../store/snapshot-cache.js';
import { landingUrl, type ClickTarget } from '../tracking/click-links.js';
import { findEvent } from './snapshot-lookup.js';

/**
 * The surface a link was shown on: a sportsbook's lines are sports, the live market crypto, an
 * event link its event's category (every surface once the event has left the snapshot), the broad
 * widget the operator as a whole.
 */
function surfaceOf(target: ClickTarget, snapshots: SnapshotCache): Surface {
  switch (target.widget) {
    case 'sportsbook':
      return 'sports';
    case 'live-market':
      return 'crypto';
    case 'event-specific': {
      const events = snapshots.get('events', 'all');
      return (events && findEvent(events, target.placement)?.category) ?? 'all';
    }
    default:
      return 'all';
  }
}

/** Whether `target`'s operator may still be shown where the link was built for (else: a neutral page, uncounted). */
export function stillShown(target: ClickTarget, operator: Operator, snapshots: SnapshotCache): boolean {
  const view = catalogView(target.country ?? UNKNOWN_COUNTRY);
  return view.operatorOn(operator.id, surfaceOf(target, snapshots)) !== undefined;
}

/** The operator's page for `target` (once stillShown), carrying the click's id when it was counted. */
export function clickLanding(target: ClickTarget, operator: Operator, clickId?: string): string {
  return landingUrl(target, operatorSites(operator), clickId);
}
