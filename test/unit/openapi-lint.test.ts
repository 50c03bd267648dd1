/**
 * The OpenAPI document passes the linters an API team runs: Spectral with its OpenAPI rules and the
 * OWASP API Security ruleset (.spectral.yaml), and Redocly CLI's `recommended` (redocly.yaml), each
 * with no error and no warning, on the document a production process serves. The same document
 * from a development process differs only in its server, plain http on localhost, which both
 * linters flag: proof that they ran with their rules.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../support/contract.js';

const root = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
// Neither linter needs the network: no telemetry, no update check.
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };

interface Finding {
  linter: string;
  rule: string;
  severity: 'error' | 'warn' | 'info';
  at: string;
  message: string;
  file: string;
}

const dir = mkdtempSync(join(tmpdir(), 'pw-openapi-lint-'));
// The ruleset's exceptions point into a file named openapi.json, as a served document is saved.
const production = join(dir, 'production', 'openapi.json');
const development = join(dir, 'development', 'openapi.json');
let findings: Finding[] = [];

/** Runs a linter's command; findings make it exit non-zero, so its output is read either way. */
async function output(bin: string, args: string[]): Promise<string> {
  try {
    return (await run(resolve(root, 'node_modules/.bin', bin), args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }))
      .stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    if (!e.stdout) throw new Error(`${bin} failed: ${e.stderr}`);
    return e.stdout;
  }
}

async function spectral(files: string[]): Promise<Finding[]> {
  const text = await output('spectral', [
    'lint',
    '--ruleset',
    resolve(root, '.spectral.yaml'),
    '--format',
    'json',
    '--quiet',
    ...files,
  ]);
  const results = JSON.parse(text.slice(0, text.lastIndexOf(']') + 1)) as Array<{
    code: string;
    severity: number;
    path: string[];
    message: string;
    source: string;
  }>;
  return results.map((r) => ({
    linter: 'spectral',
    rule: r.code,
    severity: (['error', 'warn', 'info', 'info'] as const)[r.severity]!,
    at: r.path.join('.'),
    message: r.message,
    file: r.source,
  }));
}

/** One file a run: Redocly writes one JSON report per file, back to back. */
async function redocly(file: string): Promise<Finding[]> {
  const report = JSON.parse(
    await output('redocly', ['lint', '--config', resolve(root, 'redocly.yaml'), '--format', 'json', file]),
  ) as {
    problems: Array<{
      ruleId: string;
      severity: string;
      message: string;
      location: Array<{ pointer: string; source: { ref: string } }>;
    }>;
  };
  return report.problems.map((p) => ({
    linter: 'redocly',
    rule: p.ruleId,
    severity: p.severity === 'error' ? 'error' : p.severity === 'warn' ? 'warn' : 'info',
    at: p.location[0]?.pointer ?? '',
    message: p.message,
    file,
  }));
}

const seen = (file: string, severities: Array<Finding['severity']>) =>
  findings
    .filter((f) => f.file === file && severities.includes(f.severity))
    .map((f) => `${f.linter} ${f.severity} ${f.rule} at ${f.at}: ${f.message}`);

beforeAll(async () => {
  for (const [file, doc] of [
    [production, openApiDocument('https://api.predictwire.test', true)],
    [development, openApiDocument('http://localhost:8080', false)],
  ] as const) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
  }
  // Both documents in one run of Spectral, beside Redocly's: most of the time is their start.
  findings = (
    await Promise.all([spectral([production, development]), redocly(production), redocly(development)])
  ).flat();
  // About ten seconds of CPU; minutes on a machine busy with other work.
}, 240_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the OpenAPI document under Spectral (spectral:oas, OWASP) and Redocly (recommended)', () => {
  it('has no error and no warning as a production process serves it', () => {
    expect(
      seen(production, ['error', 'warn']),
      'Fix the document (src/http/openapi.ts and the zod schemas it is built from); where a rule does not fit an operation, add its pointer to .spectral.yaml with the reason',
    ).toEqual([]);
  });

  it('is flagged for plain http on localhost as a development process serves it, and for nothing else', () => {
    expect(seen(development, ['error', 'warn']).sort()).toEqual([
      'redocly warn no-server-example.com at #/servers/0/url: Server `url` should not point to example.com or localhost.',
      'spectral error owasp:api8:2023-no-server-http at servers.0.url: Server URLs must not use http://. Use https:// or wss:// instead.',
    ]);
  });
});
