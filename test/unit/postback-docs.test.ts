/**
 * The worked example of docs/postbacks.md is what the service computes: its signature is the
 * HMAC the API checks, and its query is one the postback route accepts.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postbackSignature, signPostback } from '../../src/auth/postback-secrets.js';
import { PostbackQuery } from '../../src/http/routes/postback.js';
import { parseQuery } from '../../src/http/query.js';
import { clickIdTime } from '../../src/tracking/click-ids.js';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/postbacks.md'), 'utf8');
const line = (label: string) => new RegExp(`^${label}:\\s+(\\S+)$`, 'm').exec(doc)?.[1];

describe('docs/postbacks.md', () => {
  it('signs its example as the service does, and the example is a valid postback', () => {
    const [secret, query, sig] = [line('secret'), line('query'), line('sig')];
    expect(secret).toMatch(/^pwp_[A-Za-z0-9_-]{43}$/);
    expect(sig).toBe(postbackSignature(secret!, query!));
    expect(doc).toContain(`GET /v1/postback?${signPostback(secret!, query!)}`);
    const parsed = parseQuery(PostbackQuery, `${query}&sig=${sig}`);
    expect(parsed).toMatchObject({ event: 'first_deposit', amount: '50.00', currency: 'USD', commission: '20.00' });
    expect(clickIdTime(parsed.click_id)).toBe(Date.parse('2026-11-25T18:30:00Z'));
  });
});
