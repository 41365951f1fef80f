import { until } from '@dex/server/test-support';

/**
 * The first value `check` gives that is not undefined, looked for every 10 ms; fails after
 * `timeoutMs` with `what` in the message. For state that a stream reaches on its own time.
 */
export function eventually<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  return until(check, what, timeoutMs, 10);
}
