import type { ApiKeyRecord, ApiKeyStatus, MonthlyUsage, NewApiKey } from '../../domain/data-api/api-key.js';

/** The data API's keys and their monthly usage, as stored: only the SHA-256 of a key, never its text. */
export interface ApiKeyStore {
  /** Throws StoreConflictError when the hash is taken. */
  insert(key: NewApiKey, now: number): Promise<ApiKeyRecord>;
  get(id: number): Promise<ApiKeyRecord | undefined>;
  byHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  list(): Promise<ApiKeyRecord[]>;
  /** Moves a key from one of `from` to `to`; undefined when the key is unknown or in another state. */
  changeStatus(id: number, from: readonly ApiKeyStatus[], to: ApiKeyStatus, now: number): Promise<ApiKeyRecord | undefined>;
  /** Requests counted for a key in a month, 0 when none. */
  requests(keyId: number, monthStart: number): Promise<number>;
  /** Every month a key was used in, oldest first. */
  usage(keyId: number): Promise<MonthlyUsage[]>;
  /** Adds request counts, all in one transaction; answers the totals they reached, in order. */
  addRequests(counts: readonly MonthlyUsage[]): Promise<MonthlyUsage[]>;
}
