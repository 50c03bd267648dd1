/**
 * Run first by `npm test`: the suite needs Debian's redis-server, redis-sentinel (the failover test),
 * chromium (the embed's browser test, driven by playwright-core; nothing downloads a browser),
 * nginx (the caching edge in front of the API) and prometheus (promtool for the alert rules' tests,
 * the Prometheus server for the scrape test).
 * A missing one fails here in one line that says what to install, before any test starts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const onPath = (bin: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const nginx = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const prometheus = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const missing = [
  ...['redis-server', 'redis-sentinel'].filter((bin) => !onPath(bin)),
  ...(existsSync(chromium) ? [] : ['chromium']),
  ...(existsSync(nginx) ? [] : ['nginx']),
  // One Debian package holds both.
  ...(existsSync(prometheus) && onPath('promtool') ? [] : ['prometheus']),
];
if (missing.length > 0) {
  const paths = missing.some((m) => ['chromium', 'nginx', 'prometheus'].includes(m))
    ? ' (or set CHROMIUM_PATH / NGINX_PATH / PROMETHEUS_PATH)'
    : '';
  console.error(`npm test needs ${missing.join(', ')}: sudo apt-get install ${missing.join(' ')}${paths}`);
  process.exit(1);
}
