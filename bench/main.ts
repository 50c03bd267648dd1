/**
 * `npm run bench`: every benchmark of bench/README.md in one run, one table at the end (also
 * written as JSON and markdown under bench/results/, which git ignores).
 *
 *   npm run bench -- --only rest --seconds 3      (npm run bench -- --help for every option)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { runFanout } from './fanout.js';
import { parseOptions, USAGE, type BenchOptions } from './lib/options.js';
import { root } from './lib/procs.js';
import { renderMarkdown, renderText, type Row, type WireRow } from './lib/table.js';
import { runEdge } from './edge.js';
import { runMixedWorkload } from './mixed.js';
import { runRest } from './rest.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

let options: BenchOptions;
try {
  const parsed = parseOptions(process.argv.slice(2), process.env);
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  options = parsed;
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}

const started = Date.now();
const rows: Row[] = [];
const wire: WireRow[] = [];
const details: unknown[] = [];
if (options.parts.includes('rest') || options.parts.includes('cores')) {
  const r = await runRest(options, log);
  rows.push(...r.rows);
  wire.push(...r.wire);
  details.push(...r.details);
}
if (options.parts.includes('mixed')) {
  const r = await runMixedWorkload(options, log);
  rows.push(...r.rows);
  details.push(...r.details);
}
if (options.parts.includes('edge')) {
  const r = await runEdge(options, log);
  rows.push(...r.rows);
  details.push(...r.details);
}
if (options.parts.includes('fanout') || options.parts.includes('feed')) {
  const r = await runFanout(options, log);
  rows.push(...r.rows);
  details.push(...r.details);
}

const seconds = Math.round((Date.now() - started) / 1000);
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const header = `${new Date(started).toISOString()} · ${machine} · ${command} · ${Math.floor(seconds / 60)} min ${seconds % 60} s`;
process.stdout.write(`\n${header}\n\n${renderText(rows, wire)}\n`);

const dir = join(root, 'bench/results');
mkdirSync(dir, { recursive: true });
const stamp = new Date(started).toISOString().replaceAll(':', '-').slice(0, 19);
const md = `${header}\n\n${renderMarkdown(rows, wire)}\n`;
const json = `${JSON.stringify({ startedAt: new Date(started).toISOString(), seconds, machine, command, options, rows, wire, details }, null, 2)}\n`;
for (const name of [stamp, 'latest']) {
  writeFileSync(join(dir, `${name}.md`), md);
  writeFileSync(join(dir, `${name}.json`), json);
}
process.stdout.write(`\nwritten: bench/results/${stamp}.md and .json (also latest.md, latest.json)\n`);
process.exit(0);
