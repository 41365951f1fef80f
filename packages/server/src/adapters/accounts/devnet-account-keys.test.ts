import { join } from 'node:path';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { privateKeyToAddress } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidAccountKeyError } from '../../domain/accounts/account-keys.js';
import { type AccountKeyStore, StoreConflictError } from '../../ports/store/ports.js';
import { tempDataDir } from '../../test-support/temp-data-dir.js';
import { sqlAccountKeyStore } from '../sql/account-key-store.js';
import { openDatabase, type SqlDatabase } from '../sqlite/driver.js';
import { sqliteClient } from '../sqlite/sqlite-client.js';
import { migrate } from '../sqlite/sqlite-store.js';
import { DevnetAccountKeys, FIRST_DEVNET_ACCOUNT_NUMBER } from './devnet-account-keys.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('DevnetAccountKeys', () => {
  let data: ReturnType<typeof tempDataDir>;
  let db: SqlDatabase;
  let store: AccountKeyStore;
  let registry: DevnetAccountKeys;

  beforeEach(async () => {
    data = tempDataDir();
    db = await openDatabase(join(data.dir, 'keys.sqlite'));
    migrate(db);
    store = sqlAccountKeyStore(sqliteClient(db));
    registry = new DevnetAccountKeys(store);
  });
  afterEach(() => {
    db.close();
    data.remove();
  });

  it('finds a registered ED25519 key under its long-zero address', async () => {
    const { publicKey } = ed25519.keygen();
    await registry.register('0.0.5001', 'ED25519', publicKey, NOW);
    expect(await registry.lookup('0.0.5001')).toEqual({
      accountId: '0.0.5001',
      keyType: 'ED25519',
      publicKey: Uint8Array.from(publicKey),
      evmAddress: '0x0000000000000000000000000000000000001389',
    });
  });

  it('stores a secp256k1 key compressed under its alias address, even when given uncompressed', async () => {
    const secretKey = secp256k1.utils.randomSecretKey();
    const record = await registry.register('0.0.5002', 'ECDSA_SECP256K1', secp256k1.getPublicKey(secretKey, false), NOW);
    const address = privateKeyToAddress(`0x${Buffer.from(secretKey).toString('hex')}`).toLowerCase();
    expect(record).toEqual({
      accountId: '0.0.5002',
      keyType: 'ECDSA_SECP256K1',
      publicKey: Buffer.from(secp256k1.getPublicKey(secretKey, true)).toString('hex'),
      evmAddress: address,
      createdAt: NOW,
    });
    const found = await registry.lookup('0.0.5002');
    expect(found?.publicKey).toEqual(Uint8Array.from(secp256k1.getPublicKey(secretKey, true)));
    expect(found?.evmAddress).toBe(address);
  });

  it('answers undefined for unknown accounts and for text that is no ledger id', async () => {
    expect(await registry.lookup('0.0.5001')).toBeUndefined();
    expect(await registry.lookup('0.0.5001; DROP TABLE account_keys')).toBeUndefined();
  });

  it('refuses an invalid key before it reaches the store', async () => {
    await expect(registry.register('0.0.5001', 'ED25519', new Uint8Array(32).fill(0), NOW)).rejects.toThrow(
      InvalidAccountKeyError,
    );
    await expect(registry.register('0.0.5001', 'ECDSA_SECP256K1', new Uint8Array(33), NOW)).rejects.toThrow(
      InvalidAccountKeyError,
    );
    expect(await store.list()).toEqual([]);
  });

  it('refuses a second registration of an id', async () => {
    await registry.register('0.0.5001', 'ED25519', ed25519.keygen().publicKey, NOW);
    await expect(registry.register('0.0.5001', 'ED25519', ed25519.keygen().publicKey, NOW)).rejects.toThrow(StoreConflictError);
  });

  it('allocates new ids from 5001 upwards, after the highest in use, skipping reserved ones', async () => {
    const first = await registry.registerNew('ED25519', ed25519.keygen().publicKey, NOW);
    expect(first.accountId).toBe(`0.0.${FIRST_DEVNET_ACCOUNT_NUMBER}`);
    await registry.register('0.0.7000', 'ED25519', ed25519.keygen().publicKey, NOW);
    const reserved = new Set(['0.0.7001', '0.0.7002']);
    const next = await registry.registerNew('ED25519', ed25519.keygen().publicKey, NOW, reserved);
    expect(next).toMatchObject({ accountId: '0.0.7003', evmAddress: '0x0000000000000000000000000000000000001b5b' });
  });

  it('tries the next id when another writer took the one it picked', async () => {
    let reads = 0;
    // The first read comes before the other writer's insert of 0.0.5001; the second sees it.
    const racing: AccountKeyStore = { ...store, maxAccountNumber: async () => (reads++ === 0 ? 0 : store.maxAccountNumber()) };
    await registry.register('0.0.5001', 'ED25519', ed25519.keygen().publicKey, NOW);
    const record = await new DevnetAccountKeys(racing).registerNew('ED25519', ed25519.keygen().publicKey, NOW);
    expect(record.accountId).toBe('0.0.5002');
  });

  it('refuses to read a row that was edited into a malformed key', async () => {
    await registry.register('0.0.5001', 'ED25519', ed25519.keygen().publicKey, NOW);
    db.exec("UPDATE account_keys SET public_key = 'zz'");
    await expect(registry.lookup('0.0.5001')).rejects.toThrow(/malformed/);
  });
});
