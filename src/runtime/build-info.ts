/** `predictwire_build_info`: what runs, as labels on a constant 1 (every process exposes it). */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Gauge } from 'prom-client';

/** The version in the nearest package.json above this module (src/ in development, dist/src/ built). */
export function packageVersion(from = import.meta.dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (dirname(dir) === dir) return 'unknown';
  }
}

let exposed = false;

/** Registers the gauge once per process. */
export function exposeBuildInfo(): void {
  if (exposed) return;
  exposed = true;
  new Gauge({
    name: 'predictwire_build_info',
    help: 'Always 1; the labels say which predictwire version runs on which Node.js.',
    labelNames: ['version', 'node'] as const,
    // API workers each report the same: one series, not their sum.
    aggregator: 'first',
  })
    .labels(packageVersion(), process.versions.node)
    .set(1);
}
