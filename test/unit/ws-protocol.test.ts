import { describe, expect, it } from 'vitest';
import { dataFrame, errorFrame, parseClientMessage } from '../../src/transport/ws/protocol.js';

describe('parseClientMessage', () => {
  it('accepts subscribe and unsubscribe', () => {
    expect(parseClientMessage('{"op":"subscribe","topic":"live-market:BTC:5"}')).toEqual({
      op: 'subscribe',
      topic: 'live-market:BTC:5',
    });
    expect(parseClientMessage('{"op":"unsubscribe","topic":"event:fed-december-2026"}')).toEqual({
      op: 'unsubscribe',
      topic: 'event:fed-december-2026',
    });
  });

  it('accepts a topic of exactly 200 characters', () => {
    const topic = 'x'.repeat(200);
    expect(parseClientMessage(JSON.stringify({ op: 'subscribe', topic }))).toEqual({ op: 'subscribe', topic });
  });

  it('gives a reason string for a frame that is not JSON', () => {
    for (const text of ['', 'subscribe live-market:BTC:5', '{"op":"subscribe",', "{'op':'subscribe'}"]) {
      const r = parseClientMessage(text);
      expect(typeof r).toBe('string');
      expect(r).toMatch(/JSON/);
    }
  });

  it('gives a reason string for JSON that is not a valid message', () => {
    const bad = [
      '{"op":"publish","topic":"live-market:BTC:5"}', // wrong op
      '{"op":"SUBSCRIBE","topic":"live-market:BTC:5"}', // ops are case-sensitive
      '{"topic":"live-market:BTC:5"}', // no op
      '{"op":"subscribe"}', // no topic
      '{"op":"subscribe","topic":""}', // empty topic
      '{"op":"subscribe","topic":42}', // topic not a string
      '{"op":"subscribe","topic":null}',
      JSON.stringify({ op: 'subscribe', topic: 'x'.repeat(201) }), // topic too long
      'null',
      '[]',
      '"subscribe"',
      '42',
    ];
    for (const text of bad) {
      const r = parseClientMessage(text);
      expect({ text, type: typeof r }).toEqual({ text, type: 'string' });
      expect((r as string).length).toBeGreaterThan(0);
    }
  });
});

describe('dataFrame', () => {
  it('wraps the payload bytes as {"topic":..,"data":<payload>}', () => {
    const body = Buffer.from('{"widget_class":"live-market","seconds_left":42}');
    const frame = dataFrame('live-market:BTC:5', body);
    expect(Buffer.isBuffer(frame)).toBe(true);
    expect(frame.toString('utf8')).toBe(
      '{"topic":"live-market:BTC:5","data":{"widget_class":"live-market","seconds_left":42}}',
    );
    expect(JSON.parse(frame.toString('utf8'))).toEqual({
      topic: 'live-market:BTC:5',
      data: { widget_class: 'live-market', seconds_left: 42 },
    });
  });

  it('escapes quotes, backslashes and control characters in the topic', () => {
    const topic = 'a"b\\c\nd</script>';
    const frame = dataFrame(topic, Buffer.from('[1,2]')).toString('utf8');
    expect(JSON.parse(frame)).toEqual({ topic, data: [1, 2] });
  });

  it('keeps non-ASCII payload bytes intact', () => {
    const body = Buffer.from(JSON.stringify({ coupon: '€10 bonus', q: 'Über 2.5?' }));
    const frame = dataFrame('event:ünïcode', body);
    expect(JSON.parse(frame.toString('utf8'))).toEqual({
      topic: 'event:ünïcode',
      data: { coupon: '€10 bonus', q: 'Über 2.5?' },
    });
  });

  it('builds one frame per payload and topic: subscribers to a topic share its bytes', () => {
    const body = Buffer.from('{"v":1}');
    const frame = dataFrame('event:a', body);
    expect(dataFrame('event:a', body)).toBe(frame);
    // Another topic over the same bytes, or new bytes of the topic: a frame of their own.
    expect(JSON.parse(dataFrame('event:a:decimal', body).toString('utf8'))).toEqual({
      topic: 'event:a:decimal',
      data: { v: 1 },
    });
    expect(JSON.parse(dataFrame('event:a', Buffer.from('{"v":2}')).toString('utf8'))).toEqual({
      topic: 'event:a',
      data: { v: 2 },
    });
    expect(dataFrame('event:a', body).toString('utf8')).toBe(frame.toString('utf8'));
  });
});

describe('errorFrame', () => {
  it('is {"op":"error","code":..,"message":..} as JSON', () => {
    const f = errorFrame('unknown_topic', 'no topic "live-market:DOGE:5"');
    expect(JSON.parse(f)).toEqual({ op: 'error', code: 'unknown_topic', message: 'no topic "live-market:DOGE:5"' });
    expect(JSON.parse(errorFrame('bad_request', 'message is not JSON'))).toEqual({
      op: 'error',
      code: 'bad_request',
      message: 'message is not JSON',
    });
    expect(JSON.parse(errorFrame('too_many_subscriptions', 'limit 50'))).toEqual({
      op: 'error',
      code: 'too_many_subscriptions',
      message: 'limit 50',
    });
  });
});
