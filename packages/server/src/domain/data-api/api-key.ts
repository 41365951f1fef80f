import { createHash, randomUUID } from 'node:crypto';
import type { Network } from '../network.js';

/** A version 4 UUID in any letter case, the only shape of an API key. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** A fresh API key: a random (version 4) UUID, 122 random bits. */
export function newApiKey(): string {
  return randomUUID();
}

export function isApiKey(text: string): boolean {
  return UUID_V4.test(text);
}

/**
 * What the store keeps of a key: the SHA-256 (lower-case hex) of its lower-case text, since UUIDs
 * compare without regard to case. Any text hashes, so a malformed key is looked up, and missed,
 * exactly like an unknown one.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.toLowerCase()).digest('hex');
}

/**
 * The records of the data API's keys and their monthly usage. A key is kept only as the SHA-256 of
 * its text, so the store can find a key it is shown but can never show one.
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
