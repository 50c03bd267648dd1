import { describe, expect, it } from 'vitest';
import { checkUws, uwsLoadFailure } from '../../src/transport/uws-check.js';

describe('uWebSockets.js load check', () => {
  it('loads on this Node (a supported one)', async () => {
    expect(await checkUws()).toBeUndefined();
  });

  it('turns a missing binary into one line naming this Node and the supported versions', async () => {
    // What the bundled loader throws on Node 24 (ABI 137): no uws_linux_x64_137.node.
    const err = new Error(
      'This version of uWS.js supports only Node.js versions 18, 20, 21 and 22 ...\n\nError: Cannot find module ./bin/uws_linux_x64_137.node',
    );
    const line = await checkUws(() => Promise.reject(err));
    expect(line).toBe(uwsLoadFailure(err));
    expect(line).not.toContain('\n');
    expect(uwsLoadFailure(err, 'v24.1.0', '137')).toMatch(
      /Node v24\.1\.0 .*ABI 137.*no binary.*Supported Node versions: 20 and 22/,
    );
  });

  it('says when the binary exists but needs a newer glibc', () => {
    const err = new Error("/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found");
    expect(uwsLoadFailure(err, 'v24.1.0', '137')).toContain('needs GLIBC 2.38');
  });
});
