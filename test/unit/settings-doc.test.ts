/**
 * docs/settings.md is what the config schema generates: a setting added, removed or re-described
 * in src/config.ts without `npm run docs:settings` fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EnvSchema } from '../../src/config.js';
import { SETTINGS_FILE, settingsMarkdown } from '../../src/tools/settings-doc.js';

describe('docs/settings.md', () => {
  it('is what the config schema generates (run `npm run docs:settings` after a change)', () => {
    expect(readFileSync(SETTINGS_FILE, 'utf8')).toBe(settingsMarkdown());
  });

  it('describes every setting, with its default', () => {
    const undescribed = Object.entries(EnvSchema.shape)
      .filter(([, s]) => !s.description)
      .map(([k]) => k);
    expect(undescribed).toEqual([]);
    expect(settingsMarkdown()).toContain('| `PORT` | `8080` |');
    expect(settingsMarkdown()).toContain('| `RATE_LIMIT_CLICK` | `60/60` |');
    expect(settingsMarkdown()).toContain('| `SOURCES` | `simulator` |');
  });
});
