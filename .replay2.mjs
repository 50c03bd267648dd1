import { readFileSync } from 'node:fs';
import { App } from 'uWebSockets.js';
const [hfile, bfile, port, mode] = process.argv.slice(2);
const body = readFileSync(bfile);
const lines = readFileSync(hfile, 'utf8').split('\r\n').filter(Boolean);
const headers = lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]).filter(([k]) => !/^(date|uwebsockets|content-length)$/i.test(k));
const bheaders = headers.map(([k, v]) => [Buffer.from(k), Buffer.from(v)]);
const READS = ['x-request-id', 'if-none-match', 'accept-encoding', 'accept-language', 'user-agent', 'x-advertiser-id', 'content-length', 'transfer-encoding'].map((n) => Buffer.from(n));
let n = 0;
App().any('/*', (res, req) => {
  if (mode.includes('hdr')) { for (const name of READS) { const v = req.getHeader(name); if (v !== '') n++; } }
  if (mode.includes('addr')) { n += Buffer.from(res.getRemoteAddressAsText()).toString().length; }
  if (mode.includes('url')) { const m = req.getCaseSensitiveMethod(); const u = req.getUrl(); const q = req.getQuery(); n += m.length + u.length; }
  if (mode.includes('buf')) { for (const [k, v] of bheaders) res.writeHeader(k, v); }
  else for (const [k, v] of headers) res.writeHeader(k, v);
  res.end(body);
}).listen('127.0.0.1', Number(port), (s) => { if (!s) process.exit(1); console.log('listening'); });
