/**
 * The production artefact without Docker: `npm run build` compiles to dist/, as the Dockerfile's
 * build stage does (here without its type-check, which `npm test` has done); the API, the worker and the price feed then run as plain
 * `node dist/...` (no tsx) against a private Redis, and what they import is in `dependencies`
 * (the image installs nothing else).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveMarketPayload } from '../../src/widgets/payload-schemas.js';
import { useRedis } from '../support/redis.js';
import { spawnProcess, testEnv, waitFor, type ServiceProcess } from '../support/service.js';

const root = resolve(import.meta.dirname, '../..');
/** The image's entry points: the three processes and the CLI run inside compose. */
const ENTRIES = {
  api: 'dist/src/main.js',
  worker: 'dist/workers/main.js',
  feed: 'dist/workers/feed/main.js',
  advertiserCli: 'dist/src/tools/advertiser.js',
};

const redis = useRedis();
const procs: ServiceProcess[] = [];

/**
 * `npm run build`'s own script, with tsc told not to type-check: `npm test` type-checks the same
 * files (and the tests) before any test runs, and the files tsc writes do not depend on it.
 */
beforeAll(() => {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { scripts: { build: string } };
  const COMPILE = 'node node_modules/tsgo/bin/tsc -p tsconfig.build.json && ';
  expect(pkg.scripts.build.startsWith(COMPILE)).toBe(true);
  const script = pkg.scripts.build.replace(COMPILE, COMPILE.replace(' -p ', ' --noCheck -p '));
  execFileSync('sh', ['-c', script], {
    cwd: root,
    stdio: 'pipe',
    env: { ...process.env, PATH: `${resolve(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` },
  });
}, 240_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
});

/** Bare package names a compiled file reaches through its relative imports, transitively. */
function packagesReachedFrom(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    // Static imports and re-exports (possibly multi-line), side-effect imports, dynamic imports.
    const IMPORTS =
      /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"\s]+)['"]|^\s*import\s*['"]([^'"\s]+)['"]|\bimport\(\s*['"]([^'"\s]+)['"]\s*\)/gm;
    for (const m of src.matchAll(IMPORTS)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
      }
    }
  };
  visit(resolve(root, entry));
  return packages;
}

describe('the built dist/', () => {
  it('has every entry point the image runs', () => {
    for (const entry of Object.values(ENTRIES)) expect(existsSync(resolve(root, entry)), entry).toBe(true);
  });

  it('imports only production dependencies (no tsx, no dev tooling)', () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const entry of Object.values(ENTRIES)) {
      const reached = [...packagesReachedFrom(entry)];
      expect(reached.length, entry).toBeGreaterThan(0);
      expect(
        reached.filter((p) => !(p in pkg.dependencies)),
        entry,
      ).toEqual([]);
    }
    // The walk sees through dynamic imports and into the job modules.
    expect(packagesReachedFrom(ENTRIES.api)).toContain('uWebSockets.js');
    expect(packagesReachedFrom(ENTRIES.worker)).toContain('bullmq');
    expect(pkg.dependencies).not.toHaveProperty('tsx');
  });

  it('starts the API, the worker and the feed with plain node, and they serve data', { timeout: 120_000 }, async () => {
    const env = testEnv(redis.url);
    const api = await spawnProcess(ENTRIES.api, env);
    procs.push(api, await spawnProcess(ENTRIES.worker, env), await spawnProcess(ENTRIES.feed, env));
    await waitFor(`${api.base}/healthz`, (s) => s === 200, api, 60_000);
    // Ready means every snapshot the worker writes is loaded: the compiled worker works.
    await waitFor(`${api.base}/readyz`, (s) => s === 200, api, 60_000);
    // The compiled API serves the widget bundle `npm run build` wrote next to it.
    const embed = await fetch(`${api.base}/v1/embed.js`);
    expect([embed.status, embed.headers.get('content-type')]).toEqual([200, 'application/javascript; charset=utf-8']);
    // Ticks from the compiled feed reach the live market.
    await expect
      .poll(
        async () =>
          LiveMarketPayload.parse(await (await fetch(`${api.base}/v1/widgets/live-market?asset=BTC`)).json())
            .market_status,
        {
          timeout: 30_000,
          interval: 250,
        },
      )
      .toBe('open');
  });
});
