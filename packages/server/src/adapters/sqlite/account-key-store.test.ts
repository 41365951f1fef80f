import { join } from 'node:path';
import { CoreError } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountKeyRecord } from '../../domain/accounts/account-keys.js';
import { type AccountKeyStore, StoreConflictError } from '../../ports/store/ports.js';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import { sqlAccountKeyStore } from '../sql/account-key-store.js';
import { openDatabase, type SqlDatabase } from './driver.js';
import { sqliteClient } from './sqlite-client.js';
import { migrate } from './sqlite-store.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

function account(num: number, overrides: Partial<Omit<AccountKeyRecord, 'createdAt'>> = {}): Omit<AccountKeyRecord, 'createdAt'> {
  return {
    accountId: `0.0.${num}`,
    keyType: 'ED25519',
    publicKey: num.toString(16).padStart(64, '0'),
    evmAddress: `0x${num.toString(16).padStart(40, '0')}`,
    ...overrides,
  };
}

describe('the account key store', () => {
  let data: ReturnType<typeof tempDataDir>;
  let db: SqlDatabase;
  let store: AccountKeyStore;

  beforeEach(async () => {
    data = tempDataDir();
    db = await openDatabase(join(data.dir, 'keys.sqlite'));
    migrate(db);
    store = sqlAccountKeyStore(sqliteClient(db));
  });
  afterEach(() => {
    db.close();
    data.remove();
  });

  it('stores a key and reads it back by id, with its creation time', async () => {
    const inserted = await store.insert(account(5001), NOW);
    expect(inserted).toEqual({ ...account(5001), createdAt: NOW });
    expect(await store.get('0.0.5001')).toEqual(inserted);
    expect(await store.get('0.0.5002')).toBeUndefined();
  });

  it('lists keys in account-number order, not text order', async () => {
    for (const num of [10_000, 9, 5001]) await store.insert(account(num), NOW);
    expect((await store.list()).map((record) => record.accountId)).toEqual(['0.0.9', '0.0.5001', '0.0.10000']);
  });

  it('reports the highest account number in use, 0 when there is none', async () => {
    expect(await store.maxAccountNumber()).toBe(0);
    await store.insert(account(10_000), NOW);
    await store.insert(account(5001), NOW);
    expect(await store.maxAccountNumber()).toBe(10_000);
  });

  it('refuses a second key for an id or an EVM address that already has one', async () => {
    await store.insert(account(5001), NOW);
    await expect(
      store.insert(account(5001, { publicKey: 'ab'.repeat(32), evmAddress: `0x${'ab'.repeat(20)}` }), NOW),
    ).rejects.toThrow(StoreConflictError);
    await expect(store.insert(account(5002, { evmAddress: account(5001).evmAddress }), NOW)).rejects.toThrow(/already has a key/);
    expect(await store.list()).toHaveLength(1);
  });

  it('refuses an unknown key type as a broken rule', async () => {
    const bad = { ...account(5001), keyType: 'RSA' } as unknown as Omit<AccountKeyRecord, 'createdAt'>;
    await expect(store.insert(bad, NOW)).rejects.toThrow(/breaks a rule/);
  });

  it('refuses ids outside shard 0 realm 0 or beyond a safe integer, and malformed ids', async () => {
    await expect(store.insert(account(1, { accountId: '0.1.5001' }), NOW)).rejects.toThrow(StoreConflictError);
    await expect(store.insert(account(1, { accountId: '0.0.9007199254740992' }), NOW)).rejects.toThrow(/0\.0\.X/);
    await expect(store.insert(account(1, { accountId: '5001' }), NOW)).rejects.toThrow(CoreError);
    expect(await store.list()).toEqual([]);
  });
});
