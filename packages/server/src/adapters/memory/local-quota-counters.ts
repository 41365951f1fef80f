import type { CounterId, CountTaken, QuotaCounters } from '../../ports/quota-counters.js';

const EPOCH = 'local';

/**
 * The counters of one process, for a store that one process serves: admission and count are one
 * synchronous step on the event loop. Counts of past months are forgotten as a new month is
 * counted (the store holds them).
 */
export class LocalQuotaCounters implements QuotaCounters {
  /** Counts by `keyId:monthStart`; a load from the store is shared by the requests that wait for it. */
  private readonly counts = new Map<string, { served: number } | Promise<{ served: number }>>();
  private currentMonth = 0;

  async take(id: CounterId, limit: number | null, stored: () => Promise<number>): Promise<CountTaken> {
    if (id.monthStart > this.currentMonth) this.forgetBefore(id.monthStart);
    const count = await this.countOf(id, stored);
    if (limit !== null && count.served >= limit) return { admitted: false, served: count.served, epoch: EPOCH };
    count.served += 1;
    return { admitted: true, served: count.served, epoch: EPOCH };
  }

  async served(id: CounterId, stored: () => Promise<number>): Promise<number> {
    return (await this.countOf(id, stored)).served;
  }

  async giveBack(id: CounterId, requests: number): Promise<void> {
    const count = this.counts.get(key(id));
    if (count !== undefined && !(count instanceof Promise)) count.served -= requests;
  }

  async atLeast(totals: readonly (CounterId & { readonly served: number })[]): Promise<void> {
    for (const total of totals) {
      const count = this.counts.get(key(total));
      if (count !== undefined && !(count instanceof Promise)) count.served = Math.max(count.served, total.served);
    }
  }

  private countOf(id: CounterId, stored: () => Promise<number>): { served: number } | Promise<{ served: number }> {
    const name = key(id);
    const known = this.counts.get(name);
    if (known !== undefined) return known;
    const loading = stored().then(
      (served) => {
        const count = { served };
        this.counts.set(name, count);
        return count;
      },
      (error: unknown) => {
        this.counts.delete(name);
        throw error;
      },
    );
    this.counts.set(name, loading);
    return loading;
  }

  private forgetBefore(monthStart: number): void {
    this.currentMonth = monthStart;
    for (const name of this.counts.keys()) if (Number(name.split(':')[1]) < monthStart) this.counts.delete(name);
  }
}

function key(id: CounterId): string {
  return `${id.keyId}:${id.monthStart}`;
}
