/** The class of a failed refresh, for metrics and /readyz: what an operator acts on differs by class. */
import { ZodError } from 'zod';
import {
  CircuitOpenError,
  QuotaExhaustedError,
  UpstreamBackoffError,
  UpstreamHttpError,
  UpstreamShapeError,
  UpstreamTimeoutError,
} from './http/errors.js';
import { QualityGateError } from './quality/options.js';

export type FailureReason = 'quality' | 'quota' | 'backoff' | 'http' | 'timeout' | 'shape' | 'other';

/** Classifies a refresh error. */
export function failureReason(err: unknown): FailureReason {
  if (err instanceof QualityGateError) return 'quality';
  if (err instanceof QuotaExhaustedError) return 'quota';
  if (err instanceof UpstreamBackoffError || err instanceof CircuitOpenError) return 'backoff';
  if (err instanceof UpstreamHttpError || (err instanceof Error && err.name === 'UpstreamNetworkError')) return 'http';
  if (err instanceof UpstreamTimeoutError || (err instanceof Error && err.name === 'TimeoutError')) return 'timeout';
  if (err instanceof UpstreamShapeError || err instanceof ZodError) return 'shape';
  return 'other';
}
