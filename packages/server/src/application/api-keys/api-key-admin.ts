import {
  type ApiKeyRecord,
  type ApiKeyStatus,
  hashApiKey,
  isApiKey,
  type NewApiKey,
  newApiKey,
} from '../../domain/data-api/api-key.js';
import { monthOf } from '../../domain/data-api/utc-month.js';
import type { Clock } from '../../ports/clock.js';
import type { ApiKeyStore } from '../../ports/store/api-key-ports.js';

/** Largest monthly quota: any count the store and the headers carry exactly. */
export const MAX_API_KEY_QUOTA = 1_000_000_000_000;

/** Status changes of a key: which states each moves from, and to what. Revoking is final. */
export const API_KEY_CHANGES = new Map<string, { readonly from: readonly ApiKeyStatus[]; readonly to: ApiKeyStatus }>([
  ['revoke', { from: ['ACTIVE', 'SUSPENDED'], to: 'REVOKED' }],
  ['suspend', { from: ['ACTIVE'], to: 'SUSPENDED' }],
  ['resume', { from: ['SUSPENDED'], to: 'ACTIVE' }],
]);

/** A key as the operator sees it: never its hash, which identifies it as well as the key does. */
export type ApiKeyView = Omit<ApiKeyRecord, 'keyHash'>;

export function apiKeyView(key: ApiKeyRecord): ApiKeyView {
  const { keyHash: _hash, ...view } = key;
  return view;
}

/** A key's figures this month, as `apikey usage` shows them, and the requests of every month it was used in. */
export interface ApiKeyUsage {
  readonly key: ApiKeyView;
  /** `YYYY-MM`, UTC. */
  readonly month: string;
  readonly requests: number;
  readonly limit: number;
  readonly remaining: number;
  readonly additional: number;
  /** Unix ms when this month's quota resets. */
  readonly resetsAt: number;
  readonly months: readonly { readonly month: string; readonly requests: number }[];
}

const monthName = (monthStart: number) => new Date(monthStart).toISOString().slice(0, 7);

/**
 * The operator's side of the data API's keys: issuing them (the key's text is handed out once and
 * only its SHA-256 kept), finding, listing and changing their status, and their usage.
 */
export class ApiKeyAdmin {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  /** A new key with its text, which is shown this once: the store keeps only its hash. */
  async issue(key: Omit<NewApiKey, 'keyHash'>): Promise<{ readonly key: string; readonly record: ApiKeyRecord }> {
    const text = newApiKey();
    const record = await this.keys.insert({ keyHash: hashApiKey(text), ...key }, this.clock.now());
    return { key: text, record };
  }

  /** The key a reference names: its id, or the key itself (looked up by hash); undefined for none. */
  async find(reference: string): Promise<ApiKeyRecord | undefined> {
    if (isApiKey(reference)) return this.keys.byHash(hashApiKey(reference));
    return /^[1-9][0-9]{0,14}$/.test(reference) ? this.keys.get(Number(reference)) : undefined;
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.list();
  }

  /** Applies a change of API_KEY_CHANGES; undefined when the key is in a state the change does not apply to. */
  change(key: ApiKeyRecord, change: { readonly from: readonly ApiKeyStatus[]; readonly to: ApiKeyStatus }) {
    return this.keys.changeStatus(key.id, change.from, change.to, this.clock.now());
  }

  async usage(key: ApiKeyRecord): Promise<ApiKeyUsage> {
    const month = monthOf(this.clock.now());
    const months = await this.keys.usage(key.id);
    const requests = months.find((usage) => usage.monthStart === month.start)?.requests ?? 0;
    return {
      key: apiKeyView(key),
      month: monthName(month.start),
      requests,
      limit: key.monthlyQuota,
      remaining: Math.max(0, key.monthlyQuota - requests),
      additional: key.overageAllowed ? Math.max(0, requests - key.monthlyQuota) : 0,
      resetsAt: month.end,
      months: months.map((usage) => ({ month: monthName(usage.monthStart), requests: usage.requests })),
    };
  }
}
