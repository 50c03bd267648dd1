/**
 * The fan-out baseline: a raw uWebSockets.js app that subscribes (ioredis) to the same Redis tick
 * channel as the API and, on every tick, publishes ONE frame to one uWS topic every client joined:
 * the widget's own frame (captured from the API) with the tick's price in it, so the same size.
 * A client joins by sending any message and gets the current frame back, as on subscribe.
 *
 *   REDIS_URL=... npx tsx bench/raw-publisher.ts TEMPLATE_FILE PORT CHANNEL      (prints "listening")
 */
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { App } from 'uWebSockets.js';
import { formatMoneyPrecise } from '../src/domain/money.js';

const TOPIC = 'bench';
const MARK = '"spot_price":"';
const [file, port, channel] = process.argv.slice(2) as [string, string, string];
const template = readFileSync(file, 'utf8');
const start = template.indexOf(MARK) + MARK.length;
const prefix = template.slice(0, start);
const suffix = template.slice(template.indexOf('"', start));
let current = template;

// Compression stays off (the default), as on the API.
const app = App().ws('/*', {
  maxPayloadLength: 4 * 1024,
  idleTimeout: 32,
  sendPingsAutomatically: true,
  maxBackpressure: 256 * 1024,
  closeOnBackpressureLimit: true,
  message: (ws) => {
    ws.subscribe(TOPIC);
    ws.send(current, false);
  },
});
const sub = new Redis(process.env.REDIS_URL!);
sub.on('message', (_channel: string, message: string) => {
  current = prefix + formatMoneyPrecise((JSON.parse(message) as { price: number }).price, 'USD') + suffix;
  app.publish(TOPIC, current, false);
});
await sub.subscribe(channel);
app.listen('127.0.0.1', Number(port), (socket) => {
  if (!socket) process.exit(1);
  console.log('listening');
});
process.on('SIGTERM', () => process.exit(0));
