/**
 * A `Request` read from uWS. The peer address is asked of uWS only when something reads it: in
 * this uWS build each ask is a system call (getpeername) and a fresh ArrayBuffer, about a sixth of
 * a raw app's whole request (bench/README.md), and a route told the viewer's country (advertiser
 * routes with `geo`) never needs it. uWS's objects are valid only until the handler returns, so
 * `settle` reads the address then if the reply is still to come.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { remoteAddress } from './remote-address.js';
import { nextRequestNumber, requestIdBytes, requestIdText } from './request-id.js';
import type { Request, RequestHeaders } from './types.js';

export class UwsRequest implements Request {
  #res: HttpResponse | undefined;
  #remoteAddress: string | undefined;
  /** The caller's valid X-Request-Id, or ours once made text. */
  #id: string | undefined;
  /** Our number for the request when the caller gave no valid id (request-id.ts). */
  readonly #number: number;
  ownHeaders: Request['ownHeaders'] = undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly query: string,
    readonly headers: RequestHeaders,
    res: HttpResponse,
    /** The caller's X-Request-Id, already checked (request-id.ts `givenRequestId`). */
    givenId: string | undefined,
  ) {
    this.#res = res;
    this.#id = givenId;
    this.#number = givenId === undefined ? nextRequestNumber() : 0;
  }

  get id(): string {
    return (this.#id ??= requestIdText(this.#number));
  }

  /** The id for the X-Request-Id header: bytes valid until the next request's, unless already text. */
  idForHeader(): string | ArrayBuffer {
    return this.#id ?? requestIdBytes(this.#number);
  }

  get remoteAddress(): string {
    if (this.#remoteAddress === undefined) {
      // Only a handler that kept the request past its reply can get here: a bug, not a client's doing.
      if (!this.#res) throw new Error('the peer address was first read after the request was answered');
      this.#remoteAddress = remoteAddress(this.#res);
    }
    return this.#remoteAddress;
  }

  /** The handler has returned; a `pending` reply may still read the address, so it is read now. */
  settle(pending: boolean): void {
    if (pending) void this.remoteAddress;
    this.#res = undefined;
  }
}
