/** Whether the page is visible, and news when that changes: `document` in the page, a fake in tests. */
export interface VisibilitySource {
  isHidden(): boolean;
  /** Calls the listener on every change; returns the function that stops it. */
  subscribe(listener: () => void): () => void;
}

export interface PollerOptions<T> {
  readonly fetch: () => Promise<T>;
  readonly intervalMs: number;
  readonly onData: (data: T) => void;
  readonly onError: (error: unknown) => void;
  readonly visibility: VisibilitySource;
  /** The least wait the failure itself asks for (a 429's `Retry-After`), in ms; undefined when none. */
  readonly retryAfterMs?: ((error: unknown) => number | undefined) | undefined;
}

/** The longest wait between attempts while the service keeps failing: recovery still shows soon. */
export const MAX_BACKOFF_MS = 10_000;

/**
 * The wait before the next attempt: the interval, doubled for each failure in a row (up to
 * {@link MAX_BACKOFF_MS}, or the interval if that is longer), and never less than the failure asks for.
 */
export function nextDelayMs(intervalMs: number, failuresInARow: number, retryAfterMs: number | undefined): number {
  const backoff = Math.min(intervalMs * 2 ** failuresInARow, Math.max(MAX_BACKOFF_MS, intervalMs));
  return Math.max(backoff, retryAfterMs ?? 0);
}

/**
 * Fetches now, then again `intervalMs` after each answer (never while one is still out, so a slow
 * service is not piled on; longer after failures, see {@link nextDelayMs}), and not at all while the
 * page is hidden: a hidden tab costs the service nothing, and showing it again fetches at once.
 * Returns the function that stops it; an answer that arrives after the stop is dropped.
 */
export function startPoller<T>(options: PollerOptions<T>): () => void {
  const { intervalMs, visibility } = options;
  let stopped = false;
  let inFlight = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let retryAfter: number | undefined;

  const schedule = () => {
    if (stopped || visibility.isHidden()) return;
    timer = setTimeout(() => void tick(), nextDelayMs(intervalMs, failures, retryAfter));
  };
  const tick = async () => {
    timer = undefined;
    inFlight = true;
    try {
      const data = await options.fetch();
      failures = 0;
      retryAfter = undefined;
      if (!stopped) options.onData(data);
    } catch (error) {
      failures += 1;
      retryAfter = options.retryAfterMs?.(error);
      if (!stopped) options.onError(error);
    } finally {
      inFlight = false;
      schedule();
    }
  };
  const onVisibilityChange = () => {
    if (visibility.isHidden()) {
      clearTimeout(timer);
      timer = undefined;
    } else if (!inFlight && timer === undefined && !stopped) {
      void tick();
    }
  };

  const unsubscribe = visibility.subscribe(onVisibilityChange);
  if (!visibility.isHidden()) void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe();
  };
}
