/**
 * Polls `check` every `everyMs` until it gives a value other than undefined; fails naming `what`
 * after `timeoutMs`. For state a server, a chain or a stream reaches on its own time.
 */
export async function until<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
