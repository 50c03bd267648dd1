/**
 * A circuit breaker (cockatiel) around the Redis commands a request waits on: rate limits, key
 * checks, the readiness ping. A frozen Redis (it accepts connections, answers nothing) would cost
 * every such request REDIS_COMMAND_TIMEOUT_MS; after BREAK_AFTER consecutive failures the breaker
 * opens and the callers take their fallback at once (limits from memory, a key known good, `redis:
 * unreachable`). Every HALF_OPEN_AFTER_MS one command is let through to try Redis again.
 */
import { circuitBreaker, CircuitState, ConsecutiveBreaker, handleAll, type CircuitBreakerPolicy } from 'cockatiel';

export const BREAK_AFTER = 3;
const HALF_OPEN_AFTER_MS = 5_000;

export type RedisBreaker = CircuitBreakerPolicy;

/** A breaker for one connection's request-path commands; `onChange` hears it open and close. */
export function redisBreaker(onChange: (open: boolean) => void = () => {}): RedisBreaker {
  const breaker = circuitBreaker(handleAll, {
    halfOpenAfter: HALF_OPEN_AFTER_MS,
    breaker: new ConsecutiveBreaker(BREAK_AFTER),
  });
  breaker.onBreak(() => onChange(true));
  breaker.onReset(() => onChange(false));
  return breaker;
}

/** True while the breaker refuses commands outright (open, or half-open with its trial under way). */
export const breakerOpen = (breaker: RedisBreaker) =>
  breaker.state === CircuitState.Open || breaker.state === CircuitState.Isolated;
