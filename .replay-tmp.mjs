// throwaway: replay one captured response (headers file + body file)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { App } from 'uWebSockets.js';
const [hfile, bfile, port] = process.argv.slice(2);
const body = readFileSync(bfile);
const lines = readFileSync(hfile, 'utf8').split('\r\n').filter(Boolean);
const status = lines[0].replace(/^HTTP\/1.1 /, '');
const headers = lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]).filter(([k]) => !/^(date|uwebsockets|content-length)$/i.test(k));
App().any('/*', (res) => { res.cork(() => { res.writeStatus(status); for (const [k, v] of headers) res.writeHeader(k, v); res.end(body); }); })
  .listen('127.0.0.1', Number(port), (s) => { if (!s) process.exit(1); console.log('listening'); });
