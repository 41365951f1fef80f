import { beforeEach, describe, expect, it } from 'vitest';
import type { NewApiKey } from '../../domain/data-api/api-key.js';
import { type Store, StoreConflictError } from '../../ports/store/ports.js';
import { describeEachEngine } from '../../test-support/store-engines.js';

const NOW = Date.UTC(2026, 10, 22, 12);
const NOVEMBER = Date.UTC(2026, 10, 1);
const DECEMBER = Date.UTC(2026, 11, 1);

describeEachEngine('API keys', (stores) => {
  let store: Store;

  beforeEach(async () => {
    store = await stores.open();
  });

  function key(overrides: Partial<NewApiKey> = {}): NewApiKey {
    return {
      keyHash: 'a'.repeat(64),
      name: 'client',
      monthlyQuota: 100,
      overageAllowed: false,
      environment: 'devnet',
      ...overrides,
    };
  }

  describe('API key store', () => {
    it('issues active keys and finds them by id and by hash', async () => {
      const issued = await store.apiKeys.insert(key({ overageAllowed: true }), NOW);
      expect(issued).toEqual({ id: 1, ...key({ overageAllowed: true }), status: 'ACTIVE', createdAt: NOW, updatedAt: NOW });
      expect(await store.apiKeys.get(1)).toEqual(issued);
      expect(await store.apiKeys.byHash('a'.repeat(64))).toEqual(issued);
      expect(await store.apiKeys.byHash('b'.repeat(64))).toBeUndefined();
    });

    it('refuses a hash that is taken and a quota below one', async () => {
      await store.apiKeys.insert(key(), NOW);
      await expect(store.apiKeys.insert(key(), NOW)).rejects.toBeInstanceOf(StoreConflictError);
      await expect(store.apiKeys.insert(key({ keyHash: 'c'.repeat(64), monthlyQuota: 0 }), NOW)).rejects.toBeInstanceOf(
        StoreConflictError,
      );
      expect(await store.apiKeys.list()).toHaveLength(1);
    });

    it('sees within 100 ms a key another connection changed, though it remembers lookups', async () => {
      const issued = await store.apiKeys.insert(key(), NOW);
      expect(await store.apiKeys.byHash(issued.keyHash)).toMatchObject({ status: 'ACTIVE' });
      expect(await store.apiKeys.byHash('e'.repeat(64))).toBeUndefined();
      const operator = await stores.open();
      await operator.apiKeys.changeStatus(issued.id, ['ACTIVE'], 'REVOKED', NOW + 1);
      await operator.apiKeys.insert(key({ keyHash: 'e'.repeat(64) }), NOW + 1);
      await new Promise((resolve) => setTimeout(resolve, 110));
      expect(await store.apiKeys.byHash(issued.keyHash)).toMatchObject({ status: 'REVOKED' });
      expect(await store.apiKeys.byHash('e'.repeat(64))).toMatchObject({ id: 2 });
    });

    it('adds every count of four writers sharing two keys at once, none lost and none refused', async () => {
      const issued = await store.apiKeys.insert(key(), NOW);
      // As four gateways on PostgreSQL (four connections; a SQLite store has one writer): 100
      // commits each, crossing the same rows in both orders.
      const writers =
        stores.engine === 'postgres'
          ? [store, await stores.open(), await stores.open(), await stores.open()]
          : [store, store, store, store];
      const other = await store.apiKeys.insert(key({ keyHash: 'f'.repeat(64) }), NOW);
      await Promise.all(
        writers.flatMap((writer, index) =>
          Array.from({ length: 100 }, () =>
            writer.apiKeys.addRequests(
              index % 2 === 0
                ? [
                    { keyId: issued.id, monthStart: NOVEMBER, requests: 1 },
                    { keyId: other.id, monthStart: NOVEMBER, requests: 1 },
                  ]
                : [
                    { keyId: other.id, monthStart: NOVEMBER, requests: 1 },
                    { keyId: issued.id, monthStart: NOVEMBER, requests: 1 },
                  ],
            ),
          ),
        ),
      );
      expect(await store.apiKeys.requests(issued.id, NOVEMBER)).toBe(400);
      expect(await store.apiKeys.requests(other.id, NOVEMBER)).toBe(400);
    });

    it('changes status only from the states it is told', async () => {
      await store.apiKeys.insert(key(), NOW);
      expect(await store.apiKeys.changeStatus(1, ['SUSPENDED'], 'ACTIVE', NOW + 1)).toBeUndefined();
      expect(await store.apiKeys.changeStatus(1, ['ACTIVE'], 'SUSPENDED', NOW + 1)).toMatchObject({
        status: 'SUSPENDED',
        updatedAt: NOW + 1,
      });
      expect(await store.apiKeys.changeStatus(2, ['ACTIVE'], 'REVOKED', NOW + 1)).toBeUndefined();
    });

    it('adds request counts per key and month in one transaction, answers the totals and reads them back', async () => {
      const first = await store.apiKeys.insert(key(), NOW);
      const second = await store.apiKeys.insert(key({ keyHash: 'd'.repeat(64) }), NOW);
      expect(await store.apiKeys.requests(first.id, NOVEMBER)).toBe(0);
      await store.apiKeys.addRequests([
        { keyId: first.id, monthStart: NOVEMBER, requests: 3 },
        { keyId: second.id, monthStart: NOVEMBER, requests: 1 },
      ]);
      const totals = await store.apiKeys.addRequests([
        { keyId: first.id, monthStart: NOVEMBER, requests: 2 },
        { keyId: first.id, monthStart: DECEMBER, requests: 7 },
      ]);
      expect(totals).toEqual([
        { keyId: first.id, monthStart: NOVEMBER, requests: 5 },
        { keyId: first.id, monthStart: DECEMBER, requests: 7 },
      ]);
      expect(await store.apiKeys.requests(first.id, NOVEMBER)).toBe(5);
      expect(await store.apiKeys.usage(first.id)).toEqual([
        { keyId: first.id, monthStart: NOVEMBER, requests: 5 },
        { keyId: first.id, monthStart: DECEMBER, requests: 7 },
      ]);
      // A count for a key that does not exist breaks the foreign key: nothing of that batch is kept.
      await expect(
        store.apiKeys.addRequests([
          { keyId: first.id, monthStart: NOVEMBER, requests: 1 },
          { keyId: 99, monthStart: NOVEMBER, requests: 1 },
        ]),
      ).rejects.toThrow();
      expect(await store.apiKeys.requests(first.id, NOVEMBER)).toBe(5);
    });
  });
});
