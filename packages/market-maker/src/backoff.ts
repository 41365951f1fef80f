import { ApiError } from '@dex/sdk';

/**
 * Retry timing of one kind of work after failures: the delay doubles from `baseMs` up to `maxMs`
 * with each failure in a row, or is what the server asked for (Retry-After of a 429 or 503) when
 * that is longer. A success resets it.
 */
export class Backoff {
  private failures = 0;
  private retryAt = 0;

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  /** Whether the work may run at `now` (unix ms). */
  ready(now: number): boolean {
    return now >= this.retryAt;
  }

  /** Records a failure at `now`; returns the delay until the next try. */
  failed(now: number, error: unknown): number {
    this.failures++;
    const doubled = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.failures - 1, 30));
    const asked = error instanceof ApiError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
    const delay = Math.max(doubled, asked);
    this.retryAt = now + delay;
    return delay;
  }

  succeeded(): void {
    this.failures = 0;
    this.retryAt = 0;
  }
}
