import { readFileSync } from 'node:fs';
import { App } from 'uWebSockets.js';
import { randomBytes } from 'node:crypto';
const [hfile, bfile, port, mode] = process.argv.slice(2);
const body = readFileSync(bfile);
const lines = readFileSync(hfile, 'utf8').split('\r\n').filter(Boolean);
const hs = lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]).filter(([k]) => !/^(date|uwebsockets|content-length|x-request-id)$/i.test(k)).flat();
const bh = hs.map((h) => Buffer.from(h));
const names = ['x-request-id', 'if-none-match', 'accept-encoding', 'x-advertiser-id'].map((name) => ({ name, bytes: Buffer.from(name) }));
const PREFIX = randomBytes(6).toString('base64url'); let counter = 0;
const RID = Buffer.from('x-request-id');
const m = new Set(mode.split(','));
let sink = 0;
App().any('/*', (res, req) => {
  let headers = {};
  if (m.has('hdr')) for (const { name, bytes } of names) { const v = req.getHeader(bytes); headers[name] = v === '' ? undefined : v; }
  let method = 'GET', url = '', query = '';
  if (m.has('url')) { method = req.getCaseSensitiveMethod(); url = req.getUrl(); query = req.getQuery() ?? ''; }
  let addr = '';
  if (m.has('addr')) addr = Buffer.from(res.getRemoteAddressAsText()).toString();
  if (m.has('addrbin')) { const b = new Uint8Array(res.getRemoteAddress()); sink += b[15]; }
  if (m.has('addrab')) { const b = res.getRemoteAddress(); sink += b.byteLength; }
  if (m.has('addrtxtab')) { const b = res.getRemoteAddressAsText(); sink += b.byteLength; }
  let id = 'abc-1';
  if (m.has('rid')) { counter++; id = `${PREFIX}-${counter.toString(36)}`; }
  const request = { method, path: url, query, headers, remoteAddress: addr, id };
  sink += request.path.length;
  if (m.has('buf')) { for (let i = 0; i < bh.length; i += 2) res.writeHeader(bh[i], bh[i + 1]); }
  else { for (let i = 0; i < hs.length; i += 2) res.writeHeader(hs[i], hs[i + 1]); }
  if (m.has('ridh')) res.writeHeader(RID, id); else res.writeHeader('x-request-id', 'abc-1');
  res.end(body);
}).listen('127.0.0.1', Number(port), (s) => { if (!s) process.exit(1); });
