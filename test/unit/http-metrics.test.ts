/** The request metrics as the admin port's registry exposes them. */
import { register } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { observeRequest } from '../../src/metrics/http.js';

describe('request metrics', () => {
  it('count requests per route and status, and histogram their durations with cumulative buckets', async () => {
    observeRequest('/test-route', 200, 0.0002);
    observeRequest('/test-route', 200, 0.003);
    observeRequest('/test-route', 429, 4);
    const text = await register.metrics();
    const line = (prefix: string) =>
      text
        .split('\n')
        .find((l) => l.startsWith(prefix))
        ?.split(' ')[1];
    expect(line('predictwire_http_requests_total{route="/test-route",status="200"}')).toBe('2');
    expect(line('predictwire_http_requests_total{route="/test-route",status="429"}')).toBe('1');
    expect(line('predictwire_http_request_duration_seconds_bucket{le="0.0001",route="/test-route"}')).toBe('0');
    expect(line('predictwire_http_request_duration_seconds_bucket{le="0.0005",route="/test-route"}')).toBe('1');
    expect(line('predictwire_http_request_duration_seconds_bucket{le="0.005",route="/test-route"}')).toBe('2');
    expect(line('predictwire_http_request_duration_seconds_bucket{le="2.5",route="/test-route"}')).toBe('2');
    expect(line('predictwire_http_request_duration_seconds_bucket{le="+Inf",route="/test-route"}')).toBe('3');
    expect(line('predictwire_http_request_duration_seconds_count{route="/test-route"}')).toBe('3');
    expect(Number(line('predictwire_http_request_duration_seconds_sum{route="/test-route"}'))).toBeCloseTo(4.0032, 9);
    expect(text).toContain('# TYPE predictwire_http_request_duration_seconds histogram');
    for (const name of [
      'rate_limit_rejections_total',
      'auth_failures_total',
      'ws_connections',
      'ws_subscriptions',
      'click_buffer_size',
      'click_buffer_dropped_total',
    ]) {
      expect(text).toContain(`# TYPE predictwire_${name} `);
    }
  });
});
