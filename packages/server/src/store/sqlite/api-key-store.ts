import { performance } from 'node:perf_hooks';
import type { Network } from '../../config.js';
import type { ApiKeyRecord, ApiKeyStatus, ApiKeyStore, MonthlyUsage } from '../api-key-ports.js';
import { StoreConflictError } from '../ports.js';
import { inTransaction, type SqlDatabase } from './driver.js';

interface ApiKeyRow {
  id: number;
  key_hash: string;
  name: string;
  monthly_quota: number;
  overage_allowed: number;
  environment: Network;
  status: ApiKeyStatus;
  created_at: number;
  updated_at: number;
}

interface UsageRow {
  key_id: number;
  month_start: number;
  requests: number;
}

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: Number(row.id),
    keyHash: row.key_hash,
    name: row.name,
    monthlyQuota: Number(row.monthly_quota),
    overageAllowed: row.overage_allowed === 1,
    environment: row.environment,
    status: row.status,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toUsage(row: UsageRow): MonthlyUsage {
  return { keyId: Number(row.key_id), monthStart: Number(row.month_start), requests: Number(row.requests) };
}

/** Most key lookups remembered (known and unknown hashes); past it the memory starts over. */
const MAX_REMEMBERED = 10_000;
/** How often remembered lookups are checked against commits of other connections. */
const RECHECK_MS = 100;

/**
 * API keys and their monthly request counts (migration 3). Lookups by hash are answered from
 * memory while nothing changed the keys: this connection forgets them on its own writes, and
 * `PRAGMA data_version`, read at most every 100 ms, tells it when another connection (the
 * operator CLI) has committed.
 */
export function sqliteApiKeyStore(db: SqlDatabase): ApiKeyStore {
  const statements = {
    insert: db.prepare(
      `INSERT INTO api_keys (key_hash, name, monthly_quota, overage_allowed, environment, status, created_at, updated_at)
       VALUES (@keyHash, @name, @monthlyQuota, @overageAllowed, @environment, 'ACTIVE', @now, @now)`,
    ),
    get: db.prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    byHash: db.prepare<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    list: db.prepare<ApiKeyRow>('SELECT * FROM api_keys ORDER BY id'),
    setStatus: db.prepare('UPDATE api_keys SET status = ?, updated_at = ? WHERE id = ?'),
    requests: db.prepare<{ requests: number }>('SELECT requests FROM api_key_usage WHERE key_id = ? AND month_start = ?'),
    usage: db.prepare<UsageRow>('SELECT * FROM api_key_usage WHERE key_id = ? ORDER BY month_start'),
    synchronous: db.prepare<{ synchronous: number }>('PRAGMA synchronous'),
    unsynced: db.prepare('PRAGMA synchronous = NORMAL'),
    dataVersion: db.prepare<{ data_version: number }>('PRAGMA data_version'),
    add: db.prepare(
      `INSERT INTO api_key_usage (key_id, month_start, requests) VALUES (@keyId, @monthStart, @requests)
       ON CONFLICT (key_id, month_start) DO UPDATE SET requests = requests + excluded.requests`,
    ),
  };

  // The store's own level (FULL), restored after each unsynced commit of counts.
  const synced = db.prepare(`PRAGMA synchronous = ${Number(statements.synchronous.get()?.synchronous ?? 2)}`);
  const remembered = new Map<string, ApiKeyRecord | undefined>();
  let seenVersion: number | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  const forget = () => remembered.clear();
  const lookUp = (keyHash: string): ApiKeyRecord | undefined => {
    const now = performance.now();
    if (now - checkedAt >= RECHECK_MS) {
      checkedAt = now;
      const version = Number(statements.dataVersion.get()?.data_version);
      if (version !== seenVersion) forget();
      seenVersion = version;
    }
    if (remembered.has(keyHash)) return remembered.get(keyHash);
    const row = statements.byHash.get(keyHash);
    const key = row === undefined ? undefined : toRecord(row);
    if (remembered.size >= MAX_REMEMBERED) forget();
    remembered.set(keyHash, key);
    return key;
  };

  return {
    async insert(key, now) {
      forget();
      let id: number;
      try {
        const result = statements.insert.run({ ...key, overageAllowed: key.overageAllowed ? 1 : 0, now });
        id = Number(result.lastInsertRowid);
      } catch (error) {
        if (db.constraintOf(error) === undefined) throw error;
        throw new StoreConflictError(`API key "${key.name}" breaks a rule of the store (unique key, quota above 0)`, {
          cause: error,
        });
      }
      return toRecord(statements.get.get(id) as ApiKeyRow);
    },
    async get(id) {
      const row = statements.get.get(id);
      return row === undefined ? undefined : toRecord(row);
    },
    async byHash(keyHash) {
      return lookUp(keyHash);
    },
    async list() {
      return statements.list.all().map(toRecord);
    },
    async changeStatus(id, from, to, now) {
      forget();
      // Read and write in one transaction so a concurrent operator cannot slip a change between them.
      return inTransaction(db, () => {
        const row = statements.get.get(id);
        if (row === undefined || !from.includes(row.status)) return undefined;
        statements.setStatus.run(to, now, id);
        return toRecord(statements.get.get(id) as ApiKeyRow);
      });
    },
    async requests(keyId, monthStart) {
      return Number(statements.requests.get(keyId, monthStart)?.requests ?? 0);
    },
    async usage(keyId) {
      return statements.usage.all(keyId).map(toUsage);
    },
    async addRequests(counts) {
      if (counts.length === 0) return;
      // Counts are committed without waiting for the disk (synchronous=NORMAL; WAL): a commit
      // survives a process crash or restart at once and reaches the disk with the next synced
      // commit or checkpoint. Only an OS crash or power cut could lose the latest ones, in the
      // client's favour. Waiting for the disk per commit group would cap the data API at a few
      // thousand requests a second; orders and trades keep their synced commits.
      statements.unsynced.run();
      try {
        inTransaction(db, () => {
          for (const count of counts) statements.add.run({ ...count });
        });
      } finally {
        synced.run();
      }
    },
  };
}
