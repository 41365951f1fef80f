/** How often {@link eventually} looks again. */
const POLL_MS = 10;

/**
 * The first value `check` gives that is not undefined, looked for every few milliseconds; fails after
 * `timeoutMs` with `what` in the message. For state that a stream reaches on its own time.
 */
export async function eventually<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
