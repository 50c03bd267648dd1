import type { HttpRequest } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { CDN_GEO } from '../../src/geo/cdn-headers.js';
import { headerReader } from '../../src/transport/request-headers.js';
import { packHead, REQUEST_HEADERS } from '../../src/transport/types.js';

/** A request as uWS presents it: getHeader answers '' for an absent header. The names asked are kept. */
function uwsRequest(sent: Record<string, string>) {
  const asked: string[] = [];
  const req = {
    getHeader: (name: ArrayBuffer) => {
      const text = Buffer.from(name).toString();
      asked.push(text);
      return sent[text] ?? '';
    },
  } as unknown as HttpRequest;
  return { req, asked };
}

describe('headerReader', () => {
  it('reads only the declared headers, absent ones as undefined', () => {
    const { req, asked } = uwsRequest({ 'accept-encoding': 'br', 'user-agent': 'UA', 'x-api-key': 'secret' });
    const headers = headerReader(['accept-encoding', 'if-none-match', 'user-agent'])(req);
    expect(asked.sort()).toEqual(['accept-encoding', 'if-none-match', 'user-agent']);
    expect(headers['accept-encoding']).toBe('br');
    expect(headers['user-agent']).toBe('UA');
    expect(headers['if-none-match']).toBeUndefined();
    // Sent but not declared: never read.
    expect(headers['x-api-key']).toBeUndefined();
  });

  it('gives every route the same keys in the same order (one hidden class for all requests)', () => {
    const all = headerReader([...REQUEST_HEADERS])(uwsRequest({}).req);
    const one = headerReader(['x-request-id'])(uwsRequest({}).req);
    expect(Object.keys(all)).toEqual([...REQUEST_HEADERS]);
    expect(Object.keys(one)).toEqual([...REQUEST_HEADERS]);
  });

  it("includes every trusted CDN's geo headers (geo/cdn-headers.ts), or a CDN's country would never be read", () => {
    const cdn = Object.values(CDN_GEO).flatMap(({ country, region }) => [country, region]);
    expect(REQUEST_HEADERS.filter((name) => (cdn as string[]).includes(name))).toEqual(cdn);
  });

  it('reads each of REQUEST_HEADERS under its own name', () => {
    const sent = Object.fromEntries(REQUEST_HEADERS.map((name) => [name, `value of ${name}`]));
    const headers = headerReader([...REQUEST_HEADERS])(uwsRequest(sent).req);
    for (const name of REQUEST_HEADERS) expect(headers[name]).toBe(`value of ${name}`);
  });
});

describe('packHead', () => {
  it('joins the status text and header lines with CRLF, without the final one', () => {
    expect(Buffer.from(packHead(304, ['etag', '"a"', 'vary', 'Accept-Encoding'])).toString()).toBe(
      '304 Not Modified\r\netag: "a"\r\nvary: Accept-Encoding',
    );
  });

  it('refuses a name or value that would split the response', () => {
    expect(() => packHead(200, ['etag', '"a"\r\nset-cookie: x=1'])).toThrow(/line break/);
    expect(() => packHead(200, ['x\nbad', 'v'])).toThrow(/line break/);
  });
});
