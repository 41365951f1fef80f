import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../composition/logging.js';
import type { ApiKeyRecord } from '../../ports/store/api-key-ports.js';
import type { Store } from '../../ports/store/ports.js';
import { ManualClock } from '../../test-support/harness.js';
import { useTempStores } from '../../test-support/temp-stores.js';
import { QuotaMeter } from './quota-meter.js';

const NOVEMBER = Date.UTC(2026, 10, 1);
const DECEMBER = Date.UTC(2026, 11, 1);

const stores = useTempStores();
let store: Store;
let key: ApiKeyRecord;
const clock = new ManualClock();
const logger = createLogger('silent');

beforeEach(async () => {
  store = await stores.open();
  key = await store.apiKeys.insert(
    { keyHash: 'f'.repeat(64), name: 'k', monthlyQuota: 2, overageAllowed: false, environment: 'devnet' },
    clock.now(),
  );
});

describe('QuotaMeter', () => {
  it('admits up to the quota, refuses past it, and has stored every admitted request when it answers', async () => {
    const meter = new QuotaMeter(store.apiKeys, clock, logger);
    const verdicts = await Promise.all([meter.admit(key), meter.admit(key), meter.admit(key)]);
    expect(verdicts).toEqual([
      { admitted: true, limit: 2, remaining: 1, additionalTotal: 0, resetMs: DECEMBER },
      { admitted: true, limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER },
      { admitted: false, limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER },
    ]);
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(2);
    expect(await meter.peek(key)).toEqual({ limit: 2, remaining: 0, additionalTotal: 0, resetMs: DECEMBER });
  });

  it('continues from the stored count, as after a restart', async () => {
    await store.apiKeys.addRequests([{ keyId: key.id, monthStart: NOVEMBER, requests: 1 }]);
    const meter = new QuotaMeter(store.apiKeys, clock, logger);
    expect(await meter.admit(key)).toMatchObject({ admitted: true, remaining: 0 });
    expect(await meter.admit(key)).toMatchObject({ admitted: false });
  });

  it('answers USAGE_UNAVAILABLE and takes the counts back when they cannot be stored', async () => {
    let failing = true;
    // The real store, but for its writes of counts.
    const flaky: Store['apiKeys'] = Object.assign(Object.create(store.apiKeys) as Store['apiKeys'], {
      addRequests: async (counts: Parameters<Store['apiKeys']['addRequests']>[0]) => {
        if (failing) throw new Error('disk full');
        return store.apiKeys.addRequests(counts);
      },
    });
    const meter = new QuotaMeter(flaky, clock, logger);
    await expect(meter.admit(key)).rejects.toMatchObject({ code: 'USAGE_UNAVAILABLE', status: 503 });
    failing = false;
    expect(await meter.admit(key)).toMatchObject({ admitted: true, remaining: 1 });
    expect(await store.apiKeys.requests(key.id, NOVEMBER)).toBe(1);
  });
});
