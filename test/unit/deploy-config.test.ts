/**
 * docker-compose.yml, .env.example and src/config.ts agree: every setting the code reads is
 * documented in .env.example with its real default and a meaning, and reaches the api, worker and
 * feed containers. The list of settings comes from the config schema itself, so a new setting
 * fails here until it is documented.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvSchema } from '../../src/config.js';

const root = resolve(import.meta.dirname, '../..');
const SETTINGS = Object.keys(EnvSchema.shape) as Array<keyof typeof EnvSchema.shape>;
const APP_SERVICES = ['api', 'worker', 'feed'];

interface ExampleEntry {
  value: string;
  /** Commented out: the line shows the default. */
  commented: boolean;
  /** The prose comment line right above it. */
  meaning: string | undefined;
}

/** `KEY=value` and `# KEY=value` lines of .env.example, each with the comment line above it. */
function readEnvExample(): Map<string, ExampleEntry> {
  const entries = new Map<string, ExampleEntry>();
  const lines = readFileSync(resolve(root, '.env.example'), 'utf8').split('\n');
  lines.forEach((line, i) => {
    const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!m) return;
    const above = lines[i - 1] ?? '';
    const isProse = above.startsWith('#') && !/^#\s*[A-Z][A-Z0-9_]*=/.test(above) && !/^#\s*---/.test(above);
    entries.set(m[2]!, { value: m[3]!, commented: Boolean(m[1]), meaning: isProse ? above.replace(/^#\s*/, '') : undefined });
  });
  return entries;
}

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  env_file?: string | Array<string | { path: string }>;
  environment?: Record<string, string> | string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

function readCompose(): Record<string, Service> {
  return (parse(readFileSync(resolve(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Service> }).services;
}

const envFiles = (s: Service) => [s.env_file ?? []].flat().map((f) => (typeof f === 'string' ? f : f.path));

// Compose treats an empty variable like the code does (unset): parse "" as undefined.
const parseSetting = (key: (typeof SETTINGS)[number], value: string) => EnvSchema.shape[key].safeParse(value === '' ? undefined : value);

describe('.env.example', () => {
  const example = readEnvExample();

  it('lists every setting of src/config.ts with a meaning', () => {
    expect(SETTINGS.length).toBeGreaterThan(40);
    expect(SETTINGS.filter((k) => !example.has(k)), 'settings missing from .env.example').toEqual([]);
    expect(SETTINGS.filter((k) => !example.get(k)?.meaning), 'settings without a comment line above them').toEqual([]);
  });

  it('lists nothing the code does not read', () => {
    expect([...example.keys()].filter((k) => !(SETTINGS as string[]).includes(k))).toEqual([]);
  });

  it('shows the real default on each commented line, and a valid value on each set line', () => {
    for (const key of SETTINGS) {
      const entry = example.get(key)!;
      const shown = parseSetting(key, entry.value);
      expect(shown.success, `${key}=${entry.value} does not parse`).toBe(true);
      if (entry.commented) expect(shown.data, `${key}: .env.example shows a default the code does not use`).toEqual(parseSetting(key, '').data);
      else expect(entry.meaning, `${key} is set, so its comment must say the default`).toMatch(/default/i);
    }
  });

  it('leaves the production secrets and public URL for the operator to fill in', () => {
    expect(example.get('NODE_ENV')).toMatchObject({ value: 'production', commented: false });
    for (const key of ['PUBLIC_BASE_URL', 'CLICK_SIGNING_SECRET', 'API_KEY_PEPPER']) expect(example.get(key), key).toMatchObject({ value: '', commented: false });
  });
});

describe('docker-compose.yml', () => {
  const services = readCompose();

  it('runs api, worker and feed from one image, built once, with plain node on dist/', () => {
    const images = new Set(APP_SERVICES.map((name) => services[name]?.image));
    expect(images.size).toBe(1);
    expect([...images][0]).toBeTruthy();
    expect(APP_SERVICES.filter((name) => services[name]?.build !== undefined)).toEqual(['api']);
    for (const name of APP_SERVICES) {
      const command = services[name]!.command!;
      expect(command[0], name).toBe('node');
      expect(command.join(' '), name).not.toContain('tsx');
      expect(command[command.length - 1], name).toMatch(/^dist\/.+\.js$/);
    }
  });

  it('forwards every setting to every app container through env_file', () => {
    for (const name of APP_SERVICES) {
      const service = services[name]!;
      expect(envFiles(service), name).toContain('.env');
      // What compose sets itself must still let .env decide: ${KEY:-fallback} of the same KEY.
      const env = service.environment ?? {};
      expect(Array.isArray(env), `${name}: use a map for environment`).toBe(false);
      for (const [key, value] of Object.entries(env)) {
        if ((SETTINGS as string[]).includes(key)) expect(String(value), `${name}.${key} overrides .env`).toMatch(new RegExp(`^\\$\\{${key}(:?-[^}]*)?\\}$`));
      }
    }
  });

  it('gives every app container longer to stop than the process takes to drain and flush (10 s + DRAIN_SECONDS, 5 in production)', () => {
    for (const name of APP_SERVICES) {
      const grace = /^(\d+)s$/.exec(services[name]!.stop_grace_period ?? '');
      expect(grace, `${name} stop_grace_period`).not.toBeNull();
      expect(Number(grace![1]), name).toBeGreaterThan(10 + 5);
    }
  });

  it('health-checks the api, the worker and the feed', () => {
    for (const name of APP_SERVICES) {
      const test = services[name]!.healthcheck?.test ?? [];
      expect(test.join(' '), name).toMatch(/\/healthz/);
    }
  });
});
