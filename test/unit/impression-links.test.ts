import { describe, expect, it } from 'vitest';
import { impressionUrl, verifyImpression } from '../../src/tracking/impression-links.js';

const SECRET = 'impression-links-test-secret-0123456789';
const NOW = new Date('2026-11-25T12:00:00Z');
const EXPIRES = NOW.getTime() / 1000 + 3600;
const target = { widget: 'broad' as const, operatorIds: ['kalshi', 'polymarket', 'bet365'], expiresAt: EXPIRES };
const queryOf = (url: string) => url.slice(url.indexOf('?') + 1);

describe('impression URLs', () => {
  it('round-trip: the widget, the operators shown and the expiry come back as signed', () => {
    const url = impressionUrl('https://pw.example', SECRET, target)!;
    expect(url.startsWith('https://pw.example/v1/impression?')).toBe(true);
    expect(verifyImpression(queryOf(url), SECRET, NOW)).toEqual({ ok: true, target });
    // the same inputs give the same URL (cached bodies keep their bytes)
    expect(impressionUrl('https://pw.example', SECRET, target)).toBe(url);
  });

  it('a payload showing no operator has none', () => {
    expect(impressionUrl('https://pw.example', SECRET, { ...target, operatorIds: [] })).toBeNull();
  });

  it('refuses an operator added or removed, another widget class, another secret, no signature, or past expiry', () => {
    const query = queryOf(impressionUrl('https://pw.example', SECRET, target)!);
    const forged = [
      query.replace('o=kalshi,', 'o=kalshi,betmgm,'),
      query.replace(',bet365', ''),
      query.replace('w=broad', 'w=event-specific'),
      queryOf(impressionUrl('https://pw.example', `${SECRET}x`, target)!),
      query.slice(0, query.indexOf('&s=')),
      `${query}&o=betmgm`,
    ];
    for (const q of forged) expect(verifyImpression(q, SECRET, NOW), q).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyImpression(query, SECRET, new Date((EXPIRES + 1) * 1000))).toEqual({ ok: false, reason: 'expired' });
  });
});
