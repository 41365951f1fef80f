import { ApiError } from '@dex/sdk';
import { useEffect, useState } from 'preact/hooks';
import { startPoller, type VisibilitySource } from './poller.js';

/** What a polled request has produced so far. */
export interface Polled<T> {
  /** The last good answer, kept while later requests fail. */
  readonly data: T | undefined;
  /** Why the latest request failed; undefined once one succeeds again. */
  readonly error: unknown;
  /** When `data` arrived, unix ms. */
  readonly updatedAt: number | undefined;
}

const NOTHING_YET: Polled<never> = { data: undefined, error: undefined, updatedAt: undefined };

const documentVisibility: VisibilitySource = {
  isHidden: () => document.hidden,
  subscribe: (listener) => {
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

/** A 429 or 503 may say how long to stay away: the poller waits at least that long. */
const retryAfterMs = (error: unknown) =>
  error instanceof ApiError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : undefined;

/**
 * Polls `fetcher` every `intervalMs` (see {@link startPoller}). A new `fetcher` (memoise it on what
 * it asks for, e.g. the book id) starts over with nothing, so one book's data never shows under another.
 * While `enabled` is false nothing is asked (another source feeds the data meanwhile).
 */
export function usePolling<T>(fetcher: () => Promise<T>, intervalMs: number, enabled = true): Polled<T> {
  const [state, setState] = useState<Polled<T>>(NOTHING_YET);
  useEffect(() => {
    setState(NOTHING_YET);
    if (!enabled) return;
    return startPoller({
      fetch: fetcher,
      intervalMs,
      visibility: documentVisibility,
      retryAfterMs,
      onData: (data) => setState({ data, error: undefined, updatedAt: Date.now() }),
      onError: (error) => setState((previous) => ({ ...previous, error })),
    });
  }, [fetcher, intervalMs, enabled]);
  return state;
}
