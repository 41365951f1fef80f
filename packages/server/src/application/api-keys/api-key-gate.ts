import { type ApiKeyRecord, hashApiKey } from '../../domain/data-api/api-key.js';
import { AppError, type ErrorCode } from '../../domain/errors.js';
import type { Network } from '../../domain/network.js';
import type { Clock } from '../../ports/clock.js';
import type { Metrics } from '../../ports/metrics.js';
import type { ApiKeyStore } from '../../ports/store/api-key-ports.js';
import type { QuotaFigures, QuotaMeter } from './quota-meter.js';

/** What the gate makes of a request of a known key. */
export interface GatePass {
  /** This month's figures of the key: every answer to a known key carries them, refusals included. */
  readonly quota: QuotaFigures;
  /** Why the request is refused; null: it is served (and counted). */
  readonly refusal: AppError | null;
  /** When the quota refuses it: seconds until the quota resets (Retry-After). */
  readonly retryAfterSeconds: number | null;
}

function refusalOf(key: ApiKeyRecord, network: Network): ErrorCode | undefined {
  if (key.status === 'REVOKED') return 'API_KEY_REVOKED';
  if (key.status === 'SUSPENDED') return 'API_KEY_SUSPENDED';
  if (key.environment !== network) return 'API_KEY_WRONG_NETWORK';
  return undefined;
}

/**
 * The data API's gate: the key presented must be known (a malformed key is hashed and looked up
 * like any other, so it answers exactly as an unknown one), active and of this environment, and
 * its monthly quota must allow the request, unless overage was arranged. The key itself never
 * reaches a log or the store.
 */
export class ApiKeyGate {
  constructor(
    private readonly keys: ApiKeyStore,
    private readonly meter: QuotaMeter,
    /** Keys of other environments are refused. */
    private readonly network: Network,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /** Throws AppError for a missing or unknown key; for a known one answers its figures and any refusal. */
  async pass(presented: string | undefined): Promise<GatePass> {
    if (presented === undefined || presented === '') throw new AppError('API_KEY_MISSING');
    const key = await this.keys.byHash(hashApiKey(presented));
    if (key === undefined) throw new AppError('API_KEY_INVALID');
    const refusal = refusalOf(key, this.network);
    if (refusal !== undefined)
      return { quota: await this.meter.peek(key), refusal: new AppError(refusal), retryAfterSeconds: null };
    const verdict = await this.meter.admit(key);
    if (verdict.admitted) return { quota: verdict, refusal: null, retryAfterSeconds: null };
    this.metrics.dataApiQuotaRefused();
    const seconds = Math.max(1, Math.ceil((verdict.resetMs - this.clock.now()) / 1_000));
    const message = `The monthly quota of ${verdict.limit} requests is used up; it resets in ${seconds} s`;
    return { quota: verdict, refusal: new AppError('QUOTA_EXCEEDED', message), retryAfterSeconds: seconds };
  }
}
