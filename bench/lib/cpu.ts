/** CPU pinning (taskset, util-linux) and process memory, for fair same-machine comparisons. */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

let tasksetOk: boolean | undefined;

/** Whether `taskset` can pin processes here (warns once when it cannot). */
export function canPin(): boolean {
  if (tasksetOk === undefined) {
    const r = spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' });
    tasksetOk = !r.error && r.status === 0;
    if (!tasksetOk)
      process.stderr.write(
        'bench: taskset (util-linux) is missing or refused: processes run unpinned, ratios are noisier\n',
      );
  }
  return tasksetOk;
}

/** `command` prefixed with `taskset -c <cpus>` when `cpus` is given and pinning works. */
export function pinned(cpus: number | string | undefined, command: string[]): string[] {
  return cpus === undefined || !canPin() ? command : ['taskset', '-c', String(cpus), ...command];
}

/** Resident memory (VmRSS, KiB) of one process; 0 when it is gone. */
export function vmRssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pids of every descendant of `pid` (Linux /proc/<pid>/task/<tid>/children). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const tid of tasks) {
      let kids = '';
      try {
        kids = readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const k of kids.split(/\s+/).filter(Boolean).map(Number)) {
        out.push(k);
        walk(k);
      }
    }
  };
  walk(pid);
  return out;
}

const commOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/**
 * RSS of a process and its descendants running the same program (worker processes of a
 * multi-process server), KiB. Other children are left out: tsx's esbuild service comes and goes.
 */
export function treeRssKb(pid: number): number {
  const comm = commOf(pid);
  return [pid, ...descendants(pid).filter((p) => commOf(p) === comm)].reduce((sum, p) => sum + vmRssKb(p), 0);
}

let clockTicks: number | undefined;

/** CPU time a process has used (user + system, all its threads), in microseconds; NaN when unreadable. */
export function cpuTimeUs(pid: number): number {
  clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
  } catch {
    return Number.NaN;
  }
}
