import type { Network } from '../../domain/network.js';

/**
 * API keys of the data API and their monthly usage. A key is stored only as the SHA-256 of its
 * text, so the store can find a key it is shown but can never show one.
 */

export type ApiKeyStatus = 'ACTIVE' | 'SUSPENDED' | 'REVOKED';

export interface ApiKeyRecord {
  readonly id: number;
  /** Lower-case hex SHA-256 of the key. */
  readonly keyHash: string;
  readonly name: string;
  /** Requests per UTC month, fixed at issue. */
  readonly monthlyQuota: number;
  /** Requests past the quota are served and counted as additional instead of refused. */
  readonly overageAllowed: boolean;
  /** The network the key is valid on. */
  readonly environment: Network;
  readonly status: ApiKeyStatus;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewApiKey = Omit<ApiKeyRecord, 'id' | 'status' | 'createdAt' | 'updatedAt'>;

/** Requests one key was served in one UTC month. */
export interface MonthlyUsage {
  readonly keyId: number;
  /** Unix ms of the first instant of the month. */
  readonly monthStart: number;
  readonly requests: number;
}

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
