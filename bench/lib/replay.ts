/** The file bench/raw-replay.ts serves: answers captured from the real server, keyed per request. */

export interface ReplayEntry {
  /** From replayKey(). */
  key: string;
  /** Status line after the protocol, e.g. "200 OK". */
  status: string;
  /** The headers the application wrote, in order (see http-capture.ts replayHeaders). */
  headers: Array<[string, string]>;
  bodyBase64: string;
}

/** The lookup key of a request: path, query and Accept-Encoding (empty strings when absent). */
export const replayKey = (path: string, query: string, acceptEncoding: string) => `${path}?${query}\n${acceptEncoding}`;

/** The Accept-Encoding a browser sends, as wrk sends it in the REST and mixed parts. */
export const BROWSER_AE = 'gzip, deflate, br';

/** A request target split into path and raw query. */
export const splitPath = (path: string) => {
  const q = path.indexOf('?');
  return q < 0 ? { path, query: '' } : { path: path.slice(0, q), query: path.slice(q + 1) };
};
