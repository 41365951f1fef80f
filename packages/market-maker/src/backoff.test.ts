import { ApiError } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';

describe('backoff', () => {
  it('doubles the wait with each failure in a row up to its bound, and a success resets it', () => {
    const backoff = new Backoff(100, 1_000);
    const delays = [1, 2, 3, 4, 5, 6].map(() => backoff.failed(0, new Error('down')));
    expect(delays).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(backoff.ready(999)).toBe(false);
    expect(backoff.ready(1_000)).toBe(true);
    backoff.succeeded();
    expect(backoff.ready(0)).toBe(true);
    expect(backoff.failed(0, new Error('down'))).toBe(100);
  });

  it('waits as long as a 429 or 503 asks when that is longer', () => {
    const backoff = new Backoff(100, 1_000);
    const limited = new ApiError('Too many requests', { status: 429, url: 'http://127.0.0.1/orders/save', retryAfterSeconds: 3 });
    expect(backoff.failed(10, limited)).toBe(3_000);
    expect(backoff.ready(3_009)).toBe(false);
    expect(backoff.ready(3_010)).toBe(true);
  });
});
