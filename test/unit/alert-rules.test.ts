/**
 * The alerts of deploy/prometheus/: promtool accepts the rules and the scrape config, and runs the
 * unit tests of test/promtool/alerts.test.yml; every alert has a case there where it fires and one
 * where it does not, and a runbook section in docs/operations.md that its `runbook_url` names.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = resolve(import.meta.dirname, '../..');
const RULES = 'deploy/prometheus/alerts.yml';
const TESTS = 'test/promtool/alerts.test.yml';
const RUNBOOKS = 'https://predictwire.dev/docs/operations#';

interface AlertRule {
  alert: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleTests {
  tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
}

const alerts = (
  parse(readFileSync(resolve(root, RULES), 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
).groups.flatMap((g) => g.rules);

const run = promisify(execFile);
// promtool takes a second or two; far longer on a machine busy with other work.
const PROMTOOL_MS = 90_000;

/** Runs promtool; a failure shows promtool's own words. */
async function promtool(...args: string[]): Promise<string> {
  try {
    return (await run('promtool', args, { cwd: root })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

/** The `### Heading` sections of a markdown page, by heading. */
function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  const parts = markdown.split(/^### /m).slice(1);
  for (const part of parts) {
    const [heading, ...body] = part.split('\n');
    out.set(heading!.trim(), body.join('\n').split(/^## /m)[0]!);
  }
  return out;
}

describe('alert rules', () => {
  it(
    'are valid rules, loaded by a valid scrape config',
    async () => {
      expect(await promtool('check', 'rules', RULES)).toMatch(/SUCCESS: \d+ rules found/);
      expect(await promtool('check', 'config', 'deploy/prometheus/prometheus.yml')).toMatch(
        /is valid prometheus config file/,
      );
    },
    PROMTOOL_MS,
  );

  it(
    'pass their promtool unit tests',
    async () => {
      expect(await promtool('test', 'rules', TESTS)).toMatch(/SUCCESS/);
    },
    PROMTOOL_MS,
  );

  it('each have a unit test where the alert fires and one where it does not', () => {
    const cases = (parse(readFileSync(resolve(root, TESTS), 'utf8')) as RuleTests).tests.flatMap(
      (t) => t.alert_rule_test ?? [],
    );
    expect(alerts.length).toBeGreaterThan(10);
    const untested = alerts
      .map((a) => a.alert)
      .filter((name) => {
        const mine = cases.filter((c) => c.alertname === name);
        return !mine.some((c) => c.exp_alerts.length > 0) || !mine.some((c) => c.exp_alerts.length === 0);
      });
    expect(untested, 'alerts without both a firing and a silent case in test/promtool/alerts.test.yml').toEqual([]);
    const unknown = cases.map((c) => c.alertname).filter((name) => !alerts.some((a) => a.alert === name));
    expect(unknown, 'cases naming no alert').toEqual([]);
  });

  it('each name a runbook in docs/operations.md that says what it means, what to look at and what to do', () => {
    const runbooks = sections(readFileSync(resolve(root, 'docs/operations.md'), 'utf8'));
    for (const a of alerts) {
      expect(a.labels?.severity, a.alert).toMatch(/^(warning|critical)$/);
      expect(a.annotations?.summary, a.alert).toBeTruthy();
      expect(a.annotations?.runbook_url, a.alert).toBe(`${RUNBOOKS}${a.alert.toLowerCase()}`);
      const section = runbooks.get(a.alert);
      expect(section, `docs/operations.md has no "### ${a.alert}"`).toBeDefined();
      for (const part of ['**Means:**', '**Look at:**', '**Do:**'])
        expect(section, `${a.alert}: ${part}`).toContain(part);
    }
  });
});
