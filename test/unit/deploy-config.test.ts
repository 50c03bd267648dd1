/**
 * docker-compose.yml, .env.example and src/config.ts agree: every setting the code reads is
 * documented in .env.example with its real default and a meaning, and reaches the api, worker and
 * feed containers. The list of settings comes from the config schema itself, so a new setting
 * fails here until it is documented.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvSchema } from '../../src/config.js';
import { API_NODE_FLAGS, nodeFlagsFor } from '../../src/runtime/node-flags.js';
import { sentinelDirectives } from '../support/sentinel.js';

const root = resolve(import.meta.dirname, '../..');
const SETTINGS = Object.keys(EnvSchema.shape) as Array<keyof typeof EnvSchema.shape>;
const APP_SERVICES = ['api', 'worker', 'feed'];
const COMPOSE_TEXT = readFileSync(resolve(root, 'docker-compose.yml'), 'utf8');
/** Variables docker-compose.yml itself reads that no process does (the Redis password, the image tag). */
const COMPOSE_ONLY = [...new Set([...COMPOSE_TEXT.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!))].filter(
  (k) => !(SETTINGS as string[]).includes(k),
);

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
    entries.set(m[2]!, {
      value: m[3]!,
      commented: Boolean(m[1]),
      meaning: isProse ? above.replace(/^#\s*/, '') : undefined,
    });
  });
  return entries;
}

interface Service {
  image?: string;
  profiles?: string[];
  ports?: string[];
  configs?: Array<{ source: string; target: string }>;
  depends_on?: Record<string, unknown>;
  build?: unknown;
  command?: string[];
  env_file?: string | Array<string | { path: string }>;
  environment?: Record<string, string> | string[];
  healthcheck?: { test: string[] };
  stop_grace_period?: string;
}

interface Compose {
  services: Record<string, Service>;
  configs?: Record<string, { content?: string }>;
}

const readComposeFile = () => parse(COMPOSE_TEXT, { merge: true }) as Compose;
const readCompose = () => readComposeFile().services;

const envFiles = (s: Service) => [s.env_file ?? []].flat().map((f) => (typeof f === 'string' ? f : f.path));

// Compose treats an empty variable like the code does (unset): parse "" as undefined.
const parseSetting = (key: (typeof SETTINGS)[number], value: string) =>
  EnvSchema.shape[key].safeParse(value === '' ? undefined : value);

describe('.env.example', () => {
  const example = readEnvExample();

  it('lists every setting of src/config.ts with a meaning', () => {
    expect(SETTINGS.length).toBeGreaterThan(40);
    expect(
      SETTINGS.filter((k) => !example.has(k)),
      'settings missing from .env.example',
    ).toEqual([]);
    expect(
      SETTINGS.filter((k) => !example.get(k)?.meaning),
      'settings without a comment line above them',
    ).toEqual([]);
  });

  it('lists nothing the code or the compose file does not read', () => {
    expect([...example.keys()].filter((k) => !(SETTINGS as string[]).includes(k) && !COMPOSE_ONLY.includes(k))).toEqual(
      [],
    );
  });

  it('leaves the Redis password for the operator to fill in', () => {
    expect(COMPOSE_ONLY).toContain('REDIS_PASSWORD');
    expect(example.get('REDIS_PASSWORD')).toMatchObject({ value: '', commented: false });
  });

  it('shows the real default on each commented line, and a valid value on each set line', () => {
    for (const key of SETTINGS) {
      const entry = example.get(key)!;
      if (!entry) continue; // reported by the first test
      const shown = parseSetting(key, entry.value);
      expect(shown.success, `${key}=${entry.value} does not parse`).toBe(true);
      if (entry.commented)
        expect(shown.data, `${key}: .env.example shows a default the code does not use`).toEqual(
          parseSetting(key, '').data,
        );
      else expect(entry.meaning, `${key} is set, so its comment must say the default`).toMatch(/default/i);
    }
  });

  it('leaves the production secrets and public URL for the operator to fill in', () => {
    expect(example.get('NODE_ENV')).toMatchObject({ value: 'production', commented: false });
    for (const key of ['PUBLIC_BASE_URL', 'CLICK_SIGNING_SECRET', 'API_KEY_PEPPER'])
      expect(example.get(key), key).toMatchObject({ value: '', commented: false });
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

  it('starts the api, in compose and in the image, with the V8 flags of src/runtime/node-flags.ts', () => {
    expect(services.api!.command).toEqual(['node', ...API_NODE_FLAGS, 'dist/src/main.js']);
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(resolve(root, 'Dockerfile'), 'utf8'))?.[1];
    expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...API_NODE_FLAGS, 'dist/src/main.js']);
  });

  it('gives those flags to the api entry, as source or built, and to no other process', () => {
    for (const entry of ['src/main.ts', 'dist/src/main.js']) expect(nodeFlagsFor(entry), entry).toEqual(API_NODE_FLAGS);
    for (const entry of ['workers/main.ts', 'workers/feed/main.ts', 'dist/workers/main.js', 'bench/raw-replay.ts'])
      expect(nodeFlagsFor(entry), entry).toEqual([]);
  });

  it('forwards every setting to every app container through env_file', () => {
    for (const name of APP_SERVICES) {
      const service = services[name]!;
      expect(envFiles(service), name).toContain('.env');
      // What compose sets itself must still let .env decide: ${KEY:-fallback} of the same KEY.
      const env = service.environment ?? {};
      expect(Array.isArray(env), `${name}: use a map for environment`).toBe(false);
      for (const [key, value] of Object.entries(env)) {
        if ((SETTINGS as string[]).includes(key))
          expect(String(value), `${name}.${key} overrides .env`).toMatch(new RegExp(`^\\$\\{${key}(:?-.*)?\\}$`));
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

describe('docker-compose.yml: Redis', () => {
  const compose = readComposeFile();
  const { services } = compose;
  const PASSWORD = '${REDIS_PASSWORD:?set REDIS_PASSWORD in .env}';
  const arg = (command: string[] | undefined, flag: string) => command?.[command.indexOf(flag) + 1];

  it('runs Redis with a password (required), append-only persistence on a volume and no eviction', () => {
    for (const name of ['redis', 'redis-replica']) {
      const command = services[name]!.command!;
      expect(arg(command, '--requirepass'), name).toBe(PASSWORD);
      expect(arg(command, '--masterauth'), name).toBe(PASSWORD);
      expect(arg(command, '--appendonly'), name).toBe('yes');
      expect(arg(command, '--maxmemory-policy'), name).toBe('noeviction');
      expect(services[name]!.environment, `${name}: the health check's redis-cli needs the password`).toMatchObject({
        REDISCLI_AUTH: PASSWORD,
      });
    }
    expect(COMPOSE_TEXT).toMatch(/redis-data:\/data/);
    // The apps reach it with the password, unless .env says otherwise.
    for (const name of APP_SERVICES)
      expect((services[name]!.environment as Record<string, string>).REDIS_URL).toBe(
        '${REDIS_URL:-redis://:${REDIS_PASSWORD}@redis:6379}',
      );
  });

  it('has a sentinel profile (a replica and three sentinels) with the directives the failover test uses', () => {
    const profiled = Object.entries(services)
      .filter(([, s]) => s.profiles?.includes('sentinel'))
      .map(([name]) => name);
    expect(profiled.sort()).toEqual(['redis-replica', 'sentinel-1', 'sentinel-2', 'sentinel-3']);
    expect(arg(services['redis-replica']!.command, '--replicaof')).toBe('redis');
    const content = compose.configs?.['sentinel-conf']?.content ?? '';
    const lines = content.trim().split('\n');
    expect(lines[0]).toBe('port 26379');
    expect(lines.slice(1)).toEqual(
      sentinelDirectives({
        master: 'mymaster',
        host: 'redis',
        port: 6379,
        downAfterMs: 5000,
        password: PASSWORD,
        hostnames: true,
      }),
    );
    for (const name of ['sentinel-1', 'sentinel-2', 'sentinel-3']) {
      expect(
        services[name]!.configs?.map((c) => c.source),
        name,
      ).toEqual(['sentinel-conf']);
      expect(services[name]!.command!.join(' '), name).toMatch(/redis-sentinel/);
    }
  });

  it("starts with the sentinel profile in the operations guide's words", () => {
    const guide = readFileSync(resolve(root, 'docs/operations.md'), 'utf8');
    const section = guide.slice(guide.indexOf('## Redis Sentinel with compose'));
    expect(section).toContain('docker compose --profile sentinel up -d');
    // The sentinels the guide lists are exactly the compose services, on the port they listen on.
    const listed = /REDIS_SENTINELS=(\S+)/.exec(section)?.[1];
    expect(listed).toBe(['sentinel-1', 'sentinel-2', 'sentinel-3'].map((s) => `${s}:26379`).join(','));
    expect(/REDIS_SENTINEL_MASTER=(\S+)/.exec(section)?.[1]).toBe('mymaster');
  });

  it("publishes every process's admin port (metrics, health) on the host's loopback only", () => {
    const adminPorts: Record<string, string> = {
      api: 'ADMIN_PORT',
      worker: 'WORKER_HEALTH_PORT',
      feed: 'FEED_HEALTH_PORT',
    };
    for (const name of APP_SERVICES) {
      const key = adminPorts[name]!;
      const def = String(EnvSchema.shape[key as keyof typeof EnvSchema.shape].parse(undefined));
      expect(services[name]!.ports, name).toContain(`127.0.0.1:\${${key}:-${def}}:\${${key}:-${def}}`);
      expect((services[name]!.environment as Record<string, string>).ADMIN_HOST, name).toBe('${ADMIN_HOST:-0.0.0.0}');
    }
  });
});

describe('docker-compose.yml: monitoring', () => {
  const { services } = readComposeFile();
  const volumesOf = (name: string) =>
    ((services[name] as Service & { volumes?: string[] }).volumes ?? []).map((v) => v.split(':'));
  /** The container path a host folder of the repository is mounted at. */
  const mountOf = (name: string, hostPath: string) => volumesOf(name).find(([host]) => host === hostPath)?.[1];
  const prometheusConfig = parse(readFileSync(resolve(root, 'deploy/prometheus/prometheus.yml'), 'utf8')) as {
    rule_files: string[];
    scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
  };

  it("has a monitoring profile of Prometheus and Grafana, published on the host's loopback only", () => {
    const profiled = Object.entries(services)
      .filter(([, s]) => s.profiles?.includes('monitoring'))
      .map(([name]) => name);
    expect(profiled.sort()).toEqual(['grafana', 'prometheus']);
    for (const name of profiled) {
      expect(services[name]!.ports!.length, name).toBeGreaterThan(0);
      for (const port of services[name]!.ports!) expect(port, name).toMatch(/^127\.0\.0\.1:/);
    }
  });

  it('gives Prometheus deploy/prometheus/ where its image reads its configuration, with the alerts beside it', () => {
    const dir = mountOf('prometheus', './deploy/prometheus');
    expect(dir).toBe('/etc/prometheus');
    expect(services.prometheus!.command).toContain(`--config.file=${dir}/prometheus.yml`);
    for (const file of prometheusConfig.rule_files)
      expect(existsSync(resolve(root, 'deploy/prometheus', file)), file).toBe(true);
  });

  it('scrapes each app service on its admin port, one job per kind of process', () => {
    const adminPorts: Record<string, string> = {
      api: 'ADMIN_PORT',
      worker: 'WORKER_HEALTH_PORT',
      feed: 'FEED_HEALTH_PORT',
    };
    const jobs = Object.fromEntries(
      prometheusConfig.scrape_configs.map((j) => [j.job_name, j.static_configs.flatMap((c) => c.targets)]),
    );
    expect(Object.keys(jobs).sort()).toEqual(APP_SERVICES.map((s) => `predictwire-${s}`).sort());
    for (const name of APP_SERVICES) {
      const port = EnvSchema.shape[adminPorts[name] as keyof typeof EnvSchema.shape].parse(undefined);
      expect(jobs[`predictwire-${name}`], name).toEqual([`${name}:${port}`]);
    }
  });

  it('gives Grafana its provisioning where the image reads it, the dashboards where the provider looks, and the Prometheus service as data source', () => {
    expect(mountOf('grafana', './deploy/grafana/provisioning')).toBe('/etc/grafana/provisioning');
    const provider = parse(
      readFileSync(resolve(root, 'deploy/grafana/provisioning/dashboards/predictwire.yml'), 'utf8'),
    ) as { providers: Array<{ options: { path: string } }> };
    const dashboards = mountOf('grafana', './deploy/grafana/dashboards');
    expect(provider.providers.map((p) => p.options.path)).toEqual([dashboards]);
    const home =
      (services.grafana!.environment as Record<string, string>).GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? '';
    expect(home.startsWith(`${dashboards}/`)).toBe(true);
    expect(existsSync(resolve(root, 'deploy/grafana/dashboards', home.slice(dashboards!.length + 1)))).toBe(true);
    const sources = parse(
      readFileSync(resolve(root, 'deploy/grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
    ) as { datasources: Array<{ type: string; url: string }> };
    const promPort = services.prometheus!.ports![0]!.split(':').pop();
    expect(sources.datasources).toMatchObject([{ type: 'prometheus', url: `http://prometheus:${promPort}` }]);
  });
});
