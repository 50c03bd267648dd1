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
