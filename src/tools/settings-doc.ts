/**
 * `npm run docs:settings`: writes docs/settings.md, the one table of settings, from the config
 * schema (name, default, description). test/unit/settings-doc.test.ts fails when the file no longer
 * matches the schema.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { EnvSchema } from '../config.js';

export const SETTINGS_FILE = fileURLToPath(new URL('../../docs/settings.md', import.meta.url));

const HEADER = `# Settings

<!-- Generated from the schema in src/config.ts by \`npm run docs:settings\`; do not edit by hand. -->

Every setting is an environment variable, read and validated once at start-up by
\`src/config.ts\`: a bad value stops the process with a message that names the variable. An empty
variable counts as unset. Rates are \`points/seconds\`. \`.env.example\` carries the same settings
for \`docker compose\`.

| variable | default | meaning |
|---|---|---|
`;

/** The schema's default of one setting, walking through pipes and wrappers; undefined when it has none. */
function defaultOf(schema: z.ZodType): unknown {
  let node: z.ZodType | undefined = schema;
  while (node) {
    const def = node._zod.def as { type: string; defaultValue?: unknown; in?: z.ZodType; innerType?: z.ZodType };
    if (def.type === 'default' || def.type === 'prefault') return def.defaultValue;
    node = def.in ?? def.innerType;
  }
  return undefined;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** docs/settings.md's text for the current schema. */
export function settingsMarkdown(): string {
  const rows = Object.entries(EnvSchema.shape).map(([name, schema]) => {
    const value = defaultOf(schema);
    const shown = value === undefined || value === '' ? 'unset' : `\`${String(value)}\``;
    return `| \`${name}\` | ${cell(shown)} | ${cell(schema.description ?? '')} |`;
  });
  return `${HEADER}${rows.join('\n')}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(SETTINGS_FILE, settingsMarkdown());
  process.stdout.write(`wrote ${SETTINGS_FILE}\n`);
}
