import { SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type DeskParts, limitCandidate, openDeskParts } from '../../test-support/desk-parts.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../test-support/store-engines.js';
import { postgresClient } from './postgres-client.js';
import { openPostgresStore } from './postgres-store.js';

/** Whether a promise is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const pending = Symbol('pending');
  const outcome = await Promise.race([
    promise.catch(() => undefined),
    new Promise((resolve) => setTimeout(() => resolve(pending), ms)),
  ]);
  return outcome === pending;
}

// Engines of several shards write one PostgreSQL store; here a second writer is a bare transaction.
describe.skipIf(!POSTGRES_AVAILABLE)("an engine's commit on PostgreSQL", () => {
  const database = usePostgresDatabase('each', 'account_locks');
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const part of opened.splice(0).reverse()) await part.close();
  });

  async function engine(): Promise<DeskParts> {
    const parts = await openDeskParts({ openStore: () => openPostgresStore({ url: database.url(), maxConnections: 4 }) });
    opened.push(parts);
    return parts;
  }

  /** Another writer's transaction holding the accounts' locks until `release` is called. */
  async function holdAccounts(accounts: readonly string[]): Promise<{ release(): Promise<void> }> {
    const client = postgresClient({ url: database.url(), maxConnections: 1 });
    opened.push(client);
    let release!: () => void;
    let held!: () => void;
    const heldNow = new Promise<void>((resolve) => {
      held = resolve;
    });
    const done = client.transaction(async (tx) => {
      const locks = client.dialect.keyLocks;
      if (locks === null) throw new Error('PostgreSQL has key locks');
      await tx.get(locks, JSON.stringify(accounts));
      held();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await heldNow;
    return {
      release: async () => {
        release();
        await done;
      },
    };
  }

  it("waits for another writer's transaction on one of its accounts, so each account's event ids rise in commit order", async () => {
    const first = await engine();
    const [nonce] = await first.nonces('0.0.7', 1);
    const holder = await holdAccounts(['0.0.7']);
    const save = first.trading.accept('0.0.7', [limitCandidate('0.0.7', SELL, 25_000, 10, nonce as bigint)]);
    expect(await pendingAfter(save, 300)).toBe(true);
    await holder.release();
    await save;
    expect(await first.store.orders.lastEventId('0.0.7')).toBeGreaterThan(0);
  });

  it('does not wait for writers of other accounts', async () => {
    const parts = await engine();
    const [nonce] = await parts.nonces('0.0.8', 1);
    const holder = await holdAccounts(['0.0.7', '0.0.9']);
    const save = parts.trading.accept('0.0.8', [limitCandidate('0.0.8', SELL, 25_000, 10, nonce as bigint)]);
    expect(await pendingAfter(save, 2_000)).toBe(false);
    await holder.release();
    expect(await parts.store.orders.lastEventId('0.0.8')).toBeGreaterThan(0);
  });
});
