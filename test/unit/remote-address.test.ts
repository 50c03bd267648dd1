import { describe, expect, it } from 'vitest';
import { remoteAddress } from '../../src/transport/remote-address.js';

/** A stand-in for uWS's response: the address as uWS reports it, binary and as text. */
const peer = (bytes: number[], text: string) => ({
  getRemoteAddress: () => new Uint8Array(bytes).buffer,
  getRemoteAddressAsText: () => new TextEncoder().encode(text).buffer,
});

describe('remoteAddress', () => {
  it('formats IPv4 from its 4 bytes', () => {
    expect(remoteAddress(peer([81, 2, 69, 160], 'unused'))).toBe('81.2.69.160');
  });

  it('gives the same text for an address seen before, and a different address its own', () => {
    expect(remoteAddress(peer([192, 0, 2, 7], 'unused'))).toBe('192.0.2.7');
    expect(remoteAddress(peer([192, 0, 2, 7], 'unused'))).toBe('192.0.2.7');
    expect(remoteAddress(peer([255, 255, 255, 255], 'unused'))).toBe('255.255.255.255');
    expect(remoteAddress(peer([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 192, 0, 2, 8], 'unused'))).toBe('192.0.2.8');
  });

  it('formats IPv4 mapped into IPv6 (a dual-stack socket) as plain IPv4', () => {
    expect(remoteAddress(peer([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1], 'unused'))).toBe('127.0.0.1');
  });

  it("keeps uWS's text for IPv6", () => {
    const loopback = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
    expect(remoteAddress(peer(loopback, '0000:0000:0000:0000:0000:0000:0000:0001'))).toBe(
      '0000:0000:0000:0000:0000:0000:0000:0001',
    );
    // ffff in bytes 10-11 but not the ::ffff:0:0/96 prefix: a real IPv6 address
    const notMapped = [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4];
    expect(remoteAddress(peer(notMapped, '2001:0db8:0000:0000:0000:ffff:0102:0304'))).toBe(
      '2001:0db8:0000:0000:0000:ffff:0102:0304',
    );
  });
});
