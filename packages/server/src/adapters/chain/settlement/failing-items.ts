/** The first wait of an item that failed (ms); it doubles with each failure in a row. */
const FIRST_WAIT_MS = 250;
/**
 * The longest an item waits before it is tried again (ms): short, so that an item that failed
 * while the node was out of reach goes out within seconds of its return.
 */
const MAX_WAIT_MS = 4_000;

/**
 * Items of a relay (a swapper's cancellations, an account's floor) that failed lately, by key:
 * each waits 250 ms, 500 ms, ... up to 4 s before it is tried again, so one that keeps failing is
 * retried now and then and never holds up the others. Time is passed in (unix ms). Kept in
 * memory: after a restart every item is tried again, and one that still fails is set aside again
 * at its first failure.
 */
export class FailingItems {
  private readonly items = new Map<string, { failures: number; dueAt: number }>();

  due(key: string, now: number): boolean {
    return (this.items.get(key)?.dueAt ?? 0) <= now;
  }

  /** The keys under `prefix:` that wait at `now`, without the prefix. */
  waiting(prefix: string, now: number): string[] {
    const start = `${prefix}:`;
    return [...this.items.keys()]
      .filter((key) => key.startsWith(start) && !this.due(key, now))
      .map((key) => key.slice(start.length));
  }

  /** Records a failure at `now`; returns how long (ms) the item now waits. */
  failed(key: string, now: number): number {
    const failures = (this.items.get(key)?.failures ?? 0) + 1;
    const wait = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures - 1, 30));
    this.items.set(key, { failures, dueAt: now + wait });
    return wait;
  }

  succeeded(key: string): void {
    this.items.delete(key);
  }
}
