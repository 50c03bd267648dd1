/**
 * Reaching more than one API worker on purpose. The workers share the port (SO_REUSEPORT) and the
 * kernel picks one per connection, so a request on a connection of its own lands on either; the
 * access log (TWO_LOGGED_WORKERS) says which worker answered each request id.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { vi } from 'vitest';
import type { ServiceProcess } from './service.js';

/** Settings for an API that runs two workers and logs every request (what the helpers below read). */
export const TWO_LOGGED_WORKERS = { API_WORKERS: '2', LOG_LEVEL: 'info', ACCESS_LOG_SAMPLE_RATE: '1' } as const;

/** A request on a connection of its own; resolves with the status. */
export const requestOnNewConnection = (url: string, headers: Record<string, string>, method = 'GET') =>
  new Promise<number>((resolve, reject) => {
    request(url, { method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        res.socket.destroy();
        resolve(res.statusCode ?? 0);
      });
    })
      .on('error', (err) => reject(new Error(`${method} ${url}: ${err.message}`)))
      .end();
  });

/** The pid of the process whose access log holds `requestId`, once it is logged. */
const answeredBy = (proc: ServiceProcess, requestId: string) =>
  vi.waitFor(
    () => {
      const line = proc
        .output()
        .split('\n')
        .find((l) => l.startsWith('{') && l.includes(`"request_id":"${requestId}"`));
      if (!line) throw new Error(`request ${requestId} not in the access log`);
      return (JSON.parse(line) as { pid: number }).pid;
    },
    { timeout: 5_000, interval: 20 },
  );

/** One answer: status, Location (redirects) and body. */
export interface Answer {
  status: number;
  location: string | undefined;
  body: string;
}

/** A request on a connection of its own; resolves with the answer. */
export const answerOnNewConnection = (url: string, headers: Record<string, string>) =>
  new Promise<Answer>((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        res.socket.destroy();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location, body });
      });
    })
      .on('error', (err) => reject(new Error(`GET ${url}: ${err.message}`)))
      .end();
  });

/**
 * Sends the same request on new connections until two API workers of `proc` have answered it
 * (bounded: on a loaded machine one worker may take a long run of connections). Returns the
 * answers, one per request sent.
 */
export async function answersThroughTwoWorkers(
  proc: ServiceProcess,
  url: string,
  headers: Record<string, string>,
): Promise<Answer[]> {
  const pids = new Set<number>();
  const answers: Answer[] = [];
  while (pids.size < 2) {
    if (answers.length >= 200)
      throw new Error(`${url}: every one of ${answers.length} connections reached the same worker`);
    const id = `two-workers-${randomUUID()}`;
    answers.push(await answerOnNewConnection(url, { ...headers, 'x-request-id': id }));
    pids.add(await answeredBy(proc, id));
  }
  return answers;
}

/** The statuses of `answersThroughTwoWorkers`. */
export const requestThroughTwoWorkers = async (
  proc: ServiceProcess,
  url: string,
  headers: Record<string, string>,
): Promise<number[]> => (await answersThroughTwoWorkers(proc, url, headers)).map((a) => a.status);

/**
 * The answer of each of the two API workers of `proc` to `url`, by pid: asks on new connections
 * until both have answered (bounded, as answersThroughTwoWorkers).
 */
export async function answersFromEachWorker(
  proc: ServiceProcess,
  url: string,
  headers: Record<string, string> = {},
): Promise<Map<number, Answer>> {
  const answers = new Map<number, Answer>();
  for (let i = 0; answers.size < 2; i++) {
    if (i >= 200) throw new Error(`${url}: every one of ${i} connections reached the same worker`);
    const id = `each-worker-${randomUUID()}`;
    const answer = await answerOnNewConnection(url, { ...headers, 'x-request-id': id });
    answers.set(await answeredBy(proc, id), answer);
  }
  return answers;
}
