import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BACKOFF_MS, nextDelayMs, startPoller, type VisibilitySource } from './poller.js';

function fakeVisibility(hidden = false) {
  const listeners = new Set<() => void>();
  const source: VisibilitySource & { set(value: boolean): void } = {
    isHidden: () => hidden,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: (value) => {
      hidden = value;
      for (const listener of listeners) listener();
    },
  };
  return source;
}

/** A fetch whose answers the test releases one by one. */
function controlledFetch() {
  const pending: Array<{ resolve: (value: number) => void; reject: (error: unknown) => void }> = [];
  const fetch = vi.fn(() => new Promise<number>((resolve, reject) => pending.push({ resolve, reject })));
  return { fetch, pending };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startPoller', () => {
  it('fetches at once, then the interval after each answer', async () => {
    const { fetch, pending } = controlledFetch();
    const onData = vi.fn();
    const stop = startPoller({ fetch, intervalMs: 1000, onData, onError: vi.fn(), visibility: fakeVisibility() });
    expect(fetch).toHaveBeenCalledTimes(1);
    pending[0]?.resolve(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(onData).toHaveBeenCalledWith(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
  });

  it('never sends a request while one is still out', async () => {
    const { fetch } = controlledFetch();
    const stop = startPoller({ fetch, intervalMs: 100, onData: vi.fn(), onError: vi.fn(), visibility: fakeVisibility() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    stop();
  });

  it('reports a failure and keeps polling, slower while failures last', async () => {
    const { fetch, pending } = controlledFetch();
    const onError = vi.fn();
    const stop = startPoller({ fetch, intervalMs: 100, onData: vi.fn(), onError, visibility: fakeVisibility() });
    const failure = new Error('down');
    pending[0]?.reject(failure);
    await vi.advanceTimersByTimeAsync(199);
    expect(onError).toHaveBeenCalledWith(failure);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    pending[1]?.resolve(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(fetch).toHaveBeenCalledTimes(3);
    stop();
  });

  it('waits as long as the failure asks', async () => {
    const { fetch, pending } = controlledFetch();
    const stop = startPoller({
      fetch,
      intervalMs: 100,
      onData: vi.fn(),
      onError: vi.fn(),
      visibility: fakeVisibility(),
      retryAfterMs: () => 5000,
    });
    pending[0]?.reject(new Error('busy'));
    await vi.advanceTimersByTimeAsync(4999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
  });

  it('pauses while the page is hidden and fetches at once when it shows again', async () => {
    const { fetch, pending } = controlledFetch();
    const visibility = fakeVisibility();
    const stop = startPoller({ fetch, intervalMs: 100, onData: vi.fn(), onError: vi.fn(), visibility });
    pending[0]?.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    visibility.set(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    visibility.set(false);
    expect(fetch).toHaveBeenCalledTimes(2);
    stop();
  });

  it('does not start while hidden', async () => {
    const { fetch } = controlledFetch();
    const stop = startPoller({ fetch, intervalMs: 100, onData: vi.fn(), onError: vi.fn(), visibility: fakeVisibility(true) });
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).not.toHaveBeenCalled();
    stop();
  });

  it('drops an answer that arrives after the stop, and schedules nothing more', async () => {
    const { fetch, pending } = controlledFetch();
    const onData = vi.fn();
    const stop = startPoller({ fetch, intervalMs: 100, onData, onError: vi.fn(), visibility: fakeVisibility() });
    stop();
    pending[0]?.resolve(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(onData).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('nextDelayMs', () => {
  it('is the interval while all is well', () => {
    expect(nextDelayMs(1000, 0, undefined)).toBe(1000);
  });

  it('doubles with each failure in a row, up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((failures) => nextDelayMs(1000, failures, undefined))).toEqual([
      2000,
      4000,
      8000,
      MAX_BACKOFF_MS,
      MAX_BACKOFF_MS,
    ]);
  });

  it('never waits less than the interval, even one beyond the cap', () => {
    expect(nextDelayMs(60_000, 3, undefined)).toBe(60_000);
  });

  it('honours a longer retry-after', () => {
    expect(nextDelayMs(1000, 1, 30_000)).toBe(30_000);
  });
});
