import { performance } from 'node:perf_hooks';
import type { ApiKeyRecord, ApiKeyStatus, MonthlyUsage, NewApiKey } from '../../domain/data-api/api-key.js';
import type { Network } from '../../domain/network.js';
import type { ApiKeyStore } from '../../ports/store/api-key-ports.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import { type SqlClient, sql } from './sql-client.js';

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

const statements = {
  insert: sql<{ id: number }>(
    `INSERT INTO api_keys (key_hash, name, monthly_quota, overage_allowed, environment, status, created_at, updated_at)
     VALUES (@keyHash, @name, @monthlyQuota, @overageAllowed, @environment, 'ACTIVE', @now, @now)
     RETURNING id`,
  ),
  get: sql<ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?'),
  byHash: sql<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
  list: sql<ApiKeyRow>('SELECT * FROM api_keys ORDER BY id'),
  setStatus: sql('UPDATE api_keys SET status = ?, updated_at = ? WHERE id = ?'),
  requests: sql<{ requests: number }>('SELECT requests FROM api_key_usage WHERE key_id = ? AND month_start = ?'),
  usage: sql<UsageRow>('SELECT * FROM api_key_usage WHERE key_id = ? ORDER BY month_start'),
  add: sql<{ requests: number }>(
    `INSERT INTO api_key_usage (key_id, month_start, requests) VALUES (@keyId, @monthStart, @requests)
     ON CONFLICT (key_id, month_start) DO UPDATE SET requests = api_key_usage.requests + excluded.requests
     RETURNING requests`,
  ),
};

/**
 * Key lookups by hash answered from memory while nothing changed the keys: the store forgets them
 * on its own writes, and the client's change marker, read at most every 100 ms, tells it when
 * another connection (the operator CLI) has committed.
 */
class RememberedKeys {
  private readonly remembered = new Map<string, ApiKeyRecord | undefined>();
  private seenVersion: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly db: SqlClient) {}

  forget(): void {
    this.remembered.clear();
  }

  async lookUp(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const now = performance.now();
    if (now - this.checkedAt >= RECHECK_MS) {
      this.checkedAt = now;
      const version = await this.db.changeMarker();
      if (version !== this.seenVersion) this.forget();
      this.seenVersion = version;
    }
    if (this.remembered.has(keyHash)) return this.remembered.get(keyHash);
    const row = await this.db.get(statements.byHash, keyHash);
    const key = row === undefined ? undefined : toRecord(row);
    if (this.remembered.size >= MAX_REMEMBERED) this.forget();
    this.remembered.set(keyHash, key);
    return key;
  }
}

/** API keys and their monthly request counts (migration 3). */
class SqlApiKeyStore implements ApiKeyStore {
  private readonly keys: RememberedKeys;

  constructor(private readonly db: SqlClient) {
    this.keys = new RememberedKeys(db);
  }

  async insert(key: NewApiKey, now: number): Promise<ApiKeyRecord> {
    this.keys.forget();
    let id: number;
    try {
      const row = await this.db.get(statements.insert, { ...key, overageAllowed: key.overageAllowed ? 1 : 0, now });
      id = Number(row?.id);
    } catch (error) {
      if (this.db.constraintOf(error) === undefined) throw error;
      throw new StoreConflictError(`API key "${key.name}" breaks a rule of the store (unique key, quota above 0)`, {
        cause: error,
      });
    }
    return toRecord((await this.db.get(statements.get, id)) as ApiKeyRow);
  }

  async get(id: number): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.get(statements.get, id);
    return row === undefined ? undefined : toRecord(row);
  }

  async byHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    return this.keys.lookUp(keyHash);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.db.all(statements.list)).map(toRecord);
  }

  async changeStatus(
    id: number,
    from: readonly ApiKeyStatus[],
    to: ApiKeyStatus,
    now: number,
  ): Promise<ApiKeyRecord | undefined> {
    this.keys.forget();
    // Read and write in one transaction so a concurrent operator cannot slip a change between them.
    return this.db.transaction(async (tx) => {
      const row = await tx.get(statements.get, id);
      if (row === undefined || !from.includes(row.status)) return undefined;
      await tx.run(statements.setStatus, to, now, id);
      return toRecord((await tx.get(statements.get, id)) as ApiKeyRow);
    });
  }

  async requests(keyId: number, monthStart: number): Promise<number> {
    return Number((await this.db.get(statements.requests, keyId, monthStart))?.requests ?? 0);
  }

  async usage(keyId: number): Promise<MonthlyUsage[]> {
    return (await this.db.all(statements.usage, keyId)).map(toUsage);
  }

  async addRequests(counts: readonly MonthlyUsage[]): Promise<MonthlyUsage[]> {
    if (counts.length === 0) return [];
    // Counts are committed without waiting for the disk: a commit survives a process crash or
    // restart at once and reaches the disk with the next synced commit or checkpoint. Only an OS
    // crash or power cut could lose the latest ones, in the client's favour. Waiting for the disk
    // per commit group would cap the data API at a few thousand requests a second; orders and
    // trades keep their synced commits.
    // In one order everywhere, so that two writers locking the same rows never deadlock.
    const ordered = [...counts].sort((a, b) => a.keyId - b.keyId || a.monthStart - b.monthStart);
    return this.db.relaxedTransaction((tx) =>
      Promise.all(
        ordered.map(async (count) => {
          const total = await tx.get(statements.add, { ...count });
          if (total === undefined) throw new Error('an upsert of usage returned no row');
          return { keyId: count.keyId, monthStart: count.monthStart, requests: total.requests };
        }),
      ),
    );
  }
}

/** API keys and their monthly request counts (migration 3), lookups by hash served from memory while unchanged. */
export function sqlApiKeyStore(db: SqlClient): ApiKeyStore {
  return new SqlApiKeyStore(db);
}
