/**
 * uWebSockets.js is a native module with one binary per Node ABI. On a Node it has no binary for,
 * its own error is a multi-line stack naming versions this project does not support; this turns it
 * into one line an operator can act on.
 */

/** The Node majors this project supports (package.json `engines`, README "Node versions"). */
export const SUPPORTED_NODE = '20 and 22 (LTS)';

/** The one line printed when uWebSockets.js cannot load on this Node. */
export function uwsLoadFailure(err: unknown, node = process.version, abi = process.versions.modules): string {
  const glibc = /GLIBC_[\d.]+/.exec(String((err as Error)?.message ?? err));
  const why = glibc
    ? `its binary needs ${glibc[0].replace('_', ' ')}, newer than this system's`
    : `it has no binary for this Node`;
  return `predictwire: uWebSockets.js cannot load on Node ${node} (${process.platform}-${process.arch}, ABI ${abi}): ${why}. Supported Node versions: ${SUPPORTED_NODE}; see README "Node versions".`;
}

/**
 * Loads uWebSockets.js. Resolves to undefined when it loads, else to the one-line explanation.
 * @param load the import, replaceable in tests
 */
export async function checkUws(
  load: () => Promise<unknown> = () => import('uWebSockets.js'),
): Promise<string | undefined> {
  try {
    await load();
    return undefined;
  } catch (err) {
    return uwsLoadFailure(err);
  }
}
