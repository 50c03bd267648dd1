/**
 * A process `npm start` launched (PW_EXIT_WITH_PARENT, the launcher's pid) exits when its launcher is gone, even while
 * it is still starting: an API that waits for a Redis that never comes must not outlive the
 * launcher that started it (it was left running with parent 1 when the launcher died before the
 * API had looked, or before it had started).
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../src/runtime/free-port.js';
import { EXIT_WITH_PARENT_ENV } from '../../src/runtime/parent-watch.js';
import { alive, nodeArgsFor } from '../support/processes.js';
import { testEnv } from '../support/service.js';

let child: number | undefined;
afterAll(() => {
  if (child !== undefined && alive(child)) process.kill(child, 'SIGKILL');
});

it('an API still waiting for Redis exits when its launcher dies', async () => {
  // Nothing listens on this port and the data folder holds no copy: the API waits for Redis.
  const env = { ...process.env, ...testEnv(`redis://127.0.0.1:${await freePort()}`) };
  const args = nodeArgsFor('src/main.ts', env).map((a) => `'${a}'`);
  // A launcher stand-in: a shell that starts the API in the background with its own pid as the
  // launcher's, says the API's pid, and waits. It dies at once, while the API is still loading.
  const launcher = spawn(
    'sh',
    ['-c', `${EXIT_WITH_PARENT_ENV}=$$ '${process.execPath}' ${args.join(' ')} >/dev/null 2>&1 & echo $!; wait`],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child = await new Promise<number>((resolve) => launcher.stdout.once('data', (d: Buffer) => resolve(Number(d))));
  // Still starting (no Redis), and alive.
  await expect.poll(() => alive(child!), { timeout: 5_000, interval: 100 }).toBe(true);
  launcher.kill('SIGKILL');
  await expect.poll(() => alive(child!), { timeout: 15_000, interval: 100 }).toBe(false);
});
