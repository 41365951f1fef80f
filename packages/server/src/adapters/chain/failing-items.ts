/** Most rounds a failing item waits before it is tried again. */
const MAX_WAIT_ROUNDS = 64;

/**
 * Items of a relay (a swapper's cancellations, an account's floor) that failed lately, by key:
 * each waits 2, 4, ... up to 64 rounds before it is tried again, so one that keeps failing is
 * retried now and then and never holds up the others. Kept in memory: after a restart every item
 * is tried again, and one that still fails is set aside again at its first failure.
 */
export class FailingItems {
  private round = 0;
  private readonly items = new Map<string, { failures: number; dueRound: number }>();

  nextRound(): void {
    this.round++;
  }

  due(key: string): boolean {
    return (this.items.get(key)?.dueRound ?? 0) <= this.round;
  }

  /** The keys under `prefix:` that wait now, without the prefix. */
  waiting(prefix: string): string[] {
    const start = `${prefix}:`;
    return [...this.items.keys()].filter((key) => key.startsWith(start) && !this.due(key)).map((key) => key.slice(start.length));
  }

  /** Records a failure; returns how many rounds the item now waits. */
  failed(key: string): number {
    const failures = (this.items.get(key)?.failures ?? 0) + 1;
    const wait = Math.min(MAX_WAIT_ROUNDS, 2 ** failures);
    this.items.set(key, { failures, dueRound: this.round + wait });
    return wait;
  }

  succeeded(key: string): void {
    this.items.delete(key);
  }
}
