import { parseLedgerId } from '@dex/core';
import type { AccountKeyRecord } from '../../domain/accounts/account-keys.js';
import { type AccountKeyStore, StoreConflictError } from '../../ports/store/ports.js';
import { type SqlClient, sql } from './sql-client.js';

interface AccountKeyRow {
  account_id: string;
  key_type: AccountKeyRecord['keyType'];
  public_key: string;
  evm_address: string;
  created_at: number;
}

function toRecord(row: AccountKeyRow): AccountKeyRecord {
  return {
    accountId: row.account_id,
    keyType: row.key_type,
    publicKey: row.public_key,
    evmAddress: row.evm_address,
    createdAt: Number(row.created_at),
  };
}

/** The X of `0.0.X`, which must fit a safe integer: devnet accounts live in shard 0, realm 0. */
function accountNumber(accountId: string): number {
  const { shard, realm, num } = parseLedgerId(accountId, 'accountId');
  if (shard !== 0n || realm !== 0n || num > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new StoreConflictError(`account ${accountId} is not of the form 0.0.X with X at most ${Number.MAX_SAFE_INTEGER}`);
  }
  return Number(num);
}

const statements = {
  get: sql<AccountKeyRow>('SELECT * FROM account_keys WHERE account_id = ?'),
  insert: sql(
    `INSERT INTO account_keys (account_id, account_num, key_type, public_key, evm_address, created_at)
     VALUES (@accountId, @accountNum, @keyType, @publicKey, @evmAddress, @createdAt)`,
  ),
  list: sql<AccountKeyRow>('SELECT * FROM account_keys ORDER BY account_num'),
  maxNumber: sql<{ max_num: number }>('SELECT coalesce(max(account_num), 0) AS max_num FROM account_keys'),
};

/** Devnet account keys in the `account_keys` table (migration 2). */
export function sqlAccountKeyStore(db: SqlClient): AccountKeyStore {
  return {
    async get(accountId) {
      const row = await db.get(statements.get, accountId);
      return row === undefined ? undefined : toRecord(row);
    },
    async insert(record, now) {
      const { accountId, keyType, publicKey, evmAddress } = record;
      const accountNum = accountNumber(accountId);
      try {
        // Exactly the statement's named parameters: node:sqlite refuses unknown ones.
        await db.run(statements.insert, { accountId, accountNum, keyType, publicKey, evmAddress, createdAt: now });
      } catch (error) {
        const kind = db.constraintOf(error);
        if (kind === undefined) throw error;
        throw new StoreConflictError(
          kind === 'unique'
            ? `account ${accountId} or address ${evmAddress} already has a key`
            : `the key of account ${accountId} breaks a rule of the store (key type ED25519 or ECDSA_SECP256K1)`,
          { cause: error },
        );
      }
      return toRecord((await db.get(statements.get, accountId)) as AccountKeyRow);
    },
    async list() {
      return (await db.all(statements.list)).map(toRecord);
    },
    async maxAccountNumber() {
      return Number((await db.get(statements.maxNumber))?.max_num ?? 0);
    },
  };
}
