/**
 * Monitoring as deploy/ ships it, against a real `npm start`: Debian's Prometheus runs with the
 * scrape config of deploy/prometheus/ (its targets pointed at the launcher's admin ports, its
 * intervals shortened) and its alerts. Every target is up and every alert is loaded; every series
 * the alerts and the Grafana dashboard read is one the processes' /metrics answers define, and
 * every dashboard query runs; killing the private Redis sets PredictwireRedisDown pending.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { freePort } from '../../src/runtime/free-port.js';
import { childRunning, root, spawnEntry, waitUntil, type Spawned } from '../support/processes.js';

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const JOBS = {
  'predictwire-api': 'ADMIN_PORT',
  'predictwire-worker': 'WORKER_HEALTH_PORT',
  'predictwire-feed': 'FEED_HEALTH_PORT',
} as const;
type Job = keyof typeof JOBS;

/**
 * Series the alerts read that no process defines yet, each with what brings it. When one appears
 * in /metrics this test fails until it is taken off the list.
 */
const NOT_YET_EXPOSED: Record<string, string> = {};

interface PromConfig {
  global?: Record<string, string>;
  rule_files: string[];
  scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
}
interface Dashboard {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
}

const dir = mkdtempSync(join(tmpdir(), 'pw-monitoring-'));
const deployed = parse(readFileSync(resolve(root, 'deploy/prometheus/prometheus.yml'), 'utf8')) as PromConfig;
const alertRules = (
  parse(readFileSync(resolve(root, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
    groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
  }
).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(
  readFileSync(resolve(root, 'deploy/grafana/dashboards/predictwire.json'), 'utf8'),
) as Dashboard;
const dashboardQueries = dashboard.panels.flatMap((p) =>
  (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
);

let launcher: Spawned;
let prometheus: ChildProcess;
let prometheusOutput = '';
let promUrl: string;
const adminPorts = {} as Record<Job, number>;

/** The launcher's environment: fresh ports, its own data folder, fast refreshes. */
async function launcherEnv(): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'warn',
    REFRESH_EVENTS_SECONDS: '1',
    REFRESH_SPORTSBOOK_SECONDS: '1',
    PORT: String(await freePort()),
  };
  for (const [job, setting] of Object.entries(JOBS) as Array<[Job, string]>)
    env[setting] = String((adminPorts[job] = await freePort()));
  delete env.REDIS_URL;
  return env;
}

/** The deployed config, pointed at this launcher: targets on loopback, intervals of seconds (Redis away, a scrape of the API or worker waits up to 1 s). */
function testConfig(): PromConfig {
  return {
    ...deployed,
    global: { scrape_interval: '2s', scrape_timeout: '2s', evaluation_interval: '1s' },
    rule_files: deployed.rule_files.map((f) => resolve(root, 'deploy/prometheus', f)),
    scrape_configs: deployed.scrape_configs.map((job) => ({
      ...job,
      static_configs: [{ targets: [`127.0.0.1:${adminPorts[job.job_name as Job]}`] }],
    })),
  };
}

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${promUrl}/api/v1/${path}`);
  const body = (await res.json()) as { status: string; data: T; error?: string };
  if (body.status !== 'success') throw new Error(`${path}: ${body.error}`);
  return body.data;
}

/** Metric families a /metrics text defines (`# TYPE` lines), with the series names each implies. */
function families(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    out.set(name!, name!);
    const suffixes =
      type === 'histogram' ? ['_bucket', '_sum', '_count'] : type === 'summary' ? ['_sum', '_count'] : [];
    for (const s of suffixes) out.set(`${name}${s}`, name!);
  }
  return out;
}

/** The series names a PromQL expression reads (the processes' own and Node's; `up` is Prometheus's). */
const seriesIn = (expr: string) => [...new Set(expr.match(/\b(?:predictwire|nodejs|process)_[a-z0-9_]+\b/g) ?? [])];

beforeAll(async () => {
  expect(Object.keys(JOBS).sort(), 'the deployed jobs').toEqual(deployed.scrape_configs.map((j) => j.job_name).sort());
  launcher = spawnEntry('src/tools/embedded.ts', [], await launcherEnv());
  // The banner: printed once the API is ready, or after 30 s without (a busy machine); Prometheus waits for the rest.
  await waitUntil(
    () => /^predictwire (is ready|started)/m.test(launcher.output()) || launcher.child.exitCode !== null,
    120_000,
    launcher.output,
  );
  if (launcher.child.exitCode !== null)
    throw new Error(`launcher exited ${launcher.child.exitCode}:\n${launcher.output()}`);

  writeFileSync(join(dir, 'prometheus.yml'), stringify(testConfig()));
  const port = await freePort();
  promUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  prometheus.stdout!.on('data', (d: Buffer) => (prometheusOutput += d.toString()));
  prometheus.stderr!.on('data', (d: Buffer) => (prometheusOutput += d.toString()));
  await waitUntil(
    async () =>
      (await fetch(`${promUrl}/-/ready`).catch(() => undefined))?.status === 200 || prometheus.exitCode !== null,
    30_000,
    () => prometheusOutput,
  );
  if (prometheus.exitCode !== null) throw new Error(`prometheus exited ${prometheus.exitCode}:\n${prometheusOutput}`);
}, 180_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((r) => prometheus.once('exit', r));
    prometheus.kill('SIGTERM');
    await exited;
  }
  if (launcher && launcher.child.exitCode === null) {
    launcher.child.kill('SIGINT');
    await launcher.exit; // with Redis gone its children spill what they held, within seconds
  }
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('Prometheus with the deployed scrape config and alerts', () => {
  it('scrapes every process: each target is up', async () => {
    type Targets = { activeTargets: Array<{ labels: { job: string }; health: string; lastError: string }> };
    const health = async () =>
      Object.fromEntries(
        (await api<Targets>('targets')).activeTargets.map((t) => [
          t.labels.job,
          t.health === 'up' ? 'up' : `${t.health} ${t.lastError}`,
        ]),
      );
    await expect
      .poll(health, { timeout: 60_000, interval: 500 })
      .toEqual(Object.fromEntries(Object.keys(JOBS).map((job) => [job, 'up'])));
  }, 75_000);

  it('has loaded every alert of deploy/prometheus/alerts.yml', async () => {
    const groups = await api<{ groups: Array<{ rules: Array<{ name: string; type: string; health: string }> }> }>(
      'rules',
    );
    const loaded = groups.groups.flatMap((g) => g.rules).filter((r) => r.type === 'alerting');
    expect(loaded.map((r) => r.name).sort()).toEqual(alertRules.map((r) => r.alert).sort());
  });

  it('finds every series the alerts and the dashboard read defined in a /metrics answer of the processes', async () => {
    const texts = await Promise.all(
      Object.values(adminPorts).map(async (p) => (await fetch(`http://127.0.0.1:${p}/metrics`)).text()),
    );
    const defined = new Map(texts.flatMap((t) => [...families(t)]));
    const read = [
      ...alertRules.flatMap((r) => seriesIn(r.expr).map((s) => [s, `alert ${r.alert}`] as const)),
      ...dashboardQueries.flatMap((q) => seriesIn(q.expr).map((s) => [s, `panel "${q.panel}"`] as const)),
    ];
    expect(read.length).toBeGreaterThan(40);
    const missing = read
      .filter(([s]) => !defined.has(s) && !(s in NOT_YET_EXPOSED))
      .map(([s, where]) => `${s} (${where})`);
    expect(missing, 'series no process defines').toEqual([]);
    const arrived = Object.keys(NOT_YET_EXPOSED).filter((s) => defined.has(s));
    expect(arrived, 'exposed now: take them off NOT_YET_EXPOSED').toEqual([]);
  });

  it('runs every query of the dashboard', async () => {
    // Grafana's own variable, as Grafana would fill it in for a short range.
    const failures: string[] = [];
    for (const q of dashboardQueries) {
      await api(`query?query=${encodeURIComponent(q.expr.replaceAll('$__rate_interval', '1m'))}`).catch((err: Error) =>
        failures.push(`${q.panel}: ${err.message}`),
      );
    }
    expect(failures).toEqual([]);
  });

  it('sets PredictwireRedisDown pending once the private Redis is killed', async () => {
    const redisPid = childRunning(launcher.child.pid!, 'redis-server');
    expect(redisPid).toBeDefined();
    process.kill(redisPid!, 'SIGKILL');
    type Alerts = { alerts: Array<{ labels: { alertname: string; job: string }; state: string }> };
    const redisDown = async () =>
      (await api<Alerts>('alerts')).alerts.find((a) => a.labels.alertname === 'PredictwireRedisDown');
    await expect
      .poll(async () => (await redisDown())?.state, { timeout: 60_000, interval: 500 })
      .toMatch(/^(pending|firing)$/);
    expect((await redisDown())!.labels.job).toBe('predictwire-api');
  }, 75_000);
});
