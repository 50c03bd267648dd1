/**
 * IP address parsing for geo lookup and proxy trust. Addresses become bytes so ranges can be
 * compared; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, as uWebSockets.js reports IPv4 peers
 * on a dual-stack socket) is unwrapped to plain IPv4, so one rule and one lookup cover both forms.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface IpAddress {
  version: 4 | 6;
  /** 4 bytes for IPv4, 16 for IPv6, network order. */
  bytes: Uint8Array;
  /** Canonical text: dotted quad, or the lower-case IPv6 text as given (zone removed). */
  text: string;
}

function ipv4Bytes(s: string): Uint8Array {
  return Uint8Array.from(s.split('.').map(Number));
}

/** Expands a valid IPv6 text (already checked by isIPv6) into 16 bytes. */
function ipv6Bytes(s: string): Uint8Array {
  const [headText, tailText] = s.includes('::') ? (s.split('::', 2) as [string, string]) : [s, undefined];
  const groups = (text: string): number[] => {
    if (text === '') return [];
    const out: number[] = [];
    for (const part of text.split(':')) {
      if (part.includes('.')) {
        const [a, b, c, d] = ipv4Bytes(part);
        out.push((a! << 8) | b!, (c! << 8) | d!);
      } else out.push(parseInt(part, 16));
    }
    return out;
  };
  const head = groups(headText);
  const tail = tailText === undefined ? [] : groups(tailText);
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return bytes;
}

/** True for ::ffff:0:0/96. */
function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/**
 * Parses an IPv4 or IPv6 address. Accepts surrounding brackets and an IPv6 zone (`fe80::1%eth0`);
 * returns undefined for anything else (host names, ports, garbage).
 */
export function parseIp(input: string): IpAddress | undefined {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  if (isIPv4(s)) return { version: 4, bytes: ipv4Bytes(s), text: s };
  if (!isIPv6(s)) return undefined;
  const bytes = ipv6Bytes(s);
  if (isV4Mapped(bytes)) {
    const v4 = bytes.slice(12);
    return { version: 4, bytes: v4, text: v4.join('.') };
  }
  return { version: 6, bytes, text: s.toLowerCase() };
}

/**
 * Parses one X-Forwarded-For entry, which proxies may write with a port (`203.0.113.7:41234`,
 * `[2001:db8::1]:443`).
 */
export function parseForwardedEntry(entry: string): IpAddress | undefined {
  const s = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(s);
  if (bracketed) return parseIp(bracketed[1]!);
  const v4port = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(s);
  if (v4port) return parseIp(v4port[1]!);
  return parseIp(s);
}
