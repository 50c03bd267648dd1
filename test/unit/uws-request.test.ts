import type { HttpResponse } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { UwsRequest } from '../../src/transport/uws-request.js';

/** uWS's response as far as the peer address goes; counts how often it is asked. */
function peer(bytes: number[]) {
  const res = {
    asked: 0,
    getRemoteAddress: () => {
      res.asked++;
      return new Uint8Array(bytes).buffer;
    },
    getRemoteAddressAsText: () => new ArrayBuffer(0),
  };
  return res;
}
const request = (res: ReturnType<typeof peer>) =>
  new UwsRequest('GET', '/v1/widgets/broad', '', {}, res as unknown as HttpResponse, 'id-1');

describe('UwsRequest', () => {
  it("keeps the caller's id, and gives one of ours whose header bytes are its text", () => {
    expect(request(peer([192, 0, 2, 1])).idForHeader()).toBe('id-1');
    const ours = new UwsRequest(
      'GET',
      '/v1/widgets/broad',
      '',
      {},
      peer([192, 0, 2, 1]) as unknown as HttpResponse,
      undefined,
    );
    const bytes = Buffer.from(ours.idForHeader() as ArrayBuffer).toString('latin1');
    expect(ours.id).toBe(bytes);
    expect(ours.idForHeader()).toBe(bytes);
    const next = new UwsRequest(
      'GET',
      '/v1/widgets/broad',
      '',
      {},
      peer([192, 0, 2, 1]) as unknown as HttpResponse,
      undefined,
    );
    expect(next.id).not.toBe(ours.id);
  });

  it('asks uWS for the peer address only when read, and once', () => {
    const res = peer([81, 2, 69, 160]);
    const req = request(res);
    expect(res.asked).toBe(0);
    expect(req.remoteAddress).toBe('81.2.69.160');
    expect(req.remoteAddress).toBe('81.2.69.160');
    expect(res.asked).toBe(1);
  });

  it('reads it when the handler returns with a reply still to come, so a later read works', () => {
    const res = peer([192, 0, 2, 1]);
    const req = request(res);
    req.settle(true);
    expect(res.asked).toBe(1);
    expect(req.remoteAddress).toBe('192.0.2.1');
  });

  it('never asks uWS after an answered request, and says so if read then', () => {
    const res = peer([192, 0, 2, 1]);
    const req = request(res);
    req.settle(false);
    expect(() => req.remoteAddress).toThrow(/after the request was answered/);
    expect(res.asked).toBe(0);
  });
});
