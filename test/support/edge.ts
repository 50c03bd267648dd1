/**
 * deploy/nginx-edge.conf run for real: Debian's nginx on a loopback port in front of one API, with
 * its cache and temp files in a private temporary folder (the edge test and `npm run bench`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/runtime/free-port.js';
import { stopChild } from '../../src/runtime/stop-child.js';
import { root } from './processes.js';
import { waitFor, type ServiceProcess } from './service.js';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const hasNginx = () => existsSync(NGINX);

export interface Edge {
  base: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts nginx with the shipped config in front of the API on `originPort`; ready when /healthz answers through it. */
export async function startEdge(originPort: number): Promise<Edge> {
  const dir = mkdtempSync(join(tmpdir(), 'pw-edge-'));
  mkdirSync(join(dir, 'temp'));
  const port = await freePort();
  const conf = readFileSync(join(root, 'deploy/nginx-edge.conf'), 'utf8')
    .replaceAll('${EDGE_PORT}', `127.0.0.1:${port}`)
    .replaceAll('${ORIGIN}', `127.0.0.1:${originPort}`)
    .replace('worker_processes auto;', 'worker_processes 1;');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  // Started as root (a CI container), nginx would run its workers as nobody, who cannot write the
  // private folder: they run as this process's user.
  const user = process.getuid?.() === 0 ? ` user ${userInfo().username};` : '';
  const child = spawn(
    NGINX,
    ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', 'stderr', '-g', `daemon off;${user}`],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let errors = '';
  child.stderr?.on('data', (d: Buffer) => (errors += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/healthz`, (s) => s === 200, { child, output: () => errors } as unknown as ServiceProcess);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, child, stop };
}

/** Widget requests an API answered, by route, from its admin port's metrics. */
export async function originRequests(adminBase: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${adminBase}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/^predictwire_http_requests_total\{route="([^"]+)",status="\d+"\} (\d+)$/gm))
    counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + Number(m[2]));
  return counts;
}

/** Ten jurisdictions as Cloudflare names them: country, and region where licensing is regional. */
export const EDGE_JURISDICTIONS: Array<[string, string | undefined]> = [
  ['US', 'NJ'],
  ['US', 'NY'],
  ['US', 'TX'],
  ['CA', 'ON'],
  ['GB', undefined],
  ['DE', undefined],
  ['FR', undefined],
  ['BR', undefined],
  ['JP', undefined],
  ['AU', undefined],
];

/** Cloudflare's geo headers for a jurisdiction, as the CDN adds them. */
export const cloudflareHeaders = ([country, region]: [string, string | undefined]): Record<string, string> => ({
  'cf-ipcountry': country,
  ...(region ? { 'cf-region-code': region } : {}),
});
