/**
 * `npm run test:under-load [runs] [busy]`: the whole suite on a machine whose cores are all busy, as
 * on a shared CI runner. Starts `busy` processes (default: one per core) that spin forever, runs
 * `npm test` `runs` times in a row (default 3), prints each run's wall time and result, then stops
 * the spinners. Exits 1 when any run failed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const runs = Number(process.argv[2] ?? 3);
const busy = Number(process.argv[3] ?? availableParallelism());

const spinners = Array.from({ length: busy }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopSpinners = () => {
  for (const s of spinners) s.kill('SIGKILL');
};
process.on('exit', stopSpinners);
process.on('SIGINT', () => process.exit(130));

console.log(`npm test x${runs}, with ${busy} busy-loop process(es) on ${availableParallelism()} core(s)`);
const results: string[] = [];
for (let i = 1; i <= runs; i++) {
  const start = performance.now();
  const run = spawnSync('npm', ['test'], { cwd: root, stdio: 'inherit' });
  const seconds = (performance.now() - start) / 1000;
  const line = `run ${i}: ${run.status === 0 ? 'passed' : `FAILED (exit ${run.status ?? run.signal})`} in ${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  results.push(line);
  console.log(line);
}
stopSpinners();
console.log(results.join('\n'));
process.exitCode = results.every((l) => l.includes('passed')) ? 0 : 1;
