/**
 * The simulator's event slugs at a time: they roll with the calendar (the next Fed meeting, the
 * next CPI release), so a test names an event through these rather than writing a slug down.
 */
import { simulatorSlug } from '../../src/sources/simulator/event-catalog.js';

/** The slug of the next Fed meeting's event at `nowMs` (the wall clock unless the test moves its own). */
export const fedSlug = (nowMs = Date.now()): string => simulatorSlug('KXFEDDECISION', new Date(nowMs));

/** The slug of the next CPI release's event at `nowMs`. */
export const cpiSlug = (nowMs = Date.now()): string => simulatorSlug('KXCPIYOY', new Date(nowMs));
