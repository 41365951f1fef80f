import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QuotaFigures, QuotaMeter } from '../../../application/data-api/quota-meter.js';
import { hashApiKey } from '../../../domain/data-api/api-key.js';
import { AppError, type ErrorCode } from '../../../domain/errors.js';
import type { Network } from '../../../domain/network.js';
import type { Clock } from '../../../ports/clock.js';
import type { Metrics } from '../../../ports/metrics.js';
import type { ApiKeyRecord, ApiKeyStore } from '../../../ports/store/api-key-ports.js';

export interface ApiKeyAuthOptions {
  readonly keys: ApiKeyStore;
  readonly meter: QuotaMeter;
  /** Keys of other environments are refused. */
  readonly network: Network;
  readonly clock: Clock;
  readonly metrics: Metrics;
}

export type ApiKeyHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function refusalOf(key: ApiKeyRecord, network: Network): ErrorCode | undefined {
  if (key.status === 'REVOKED') return 'API_KEY_REVOKED';
  if (key.status === 'SUSPENDED') return 'API_KEY_SUSPENDED';
  if (key.environment !== network) return 'API_KEY_WRONG_NETWORK';
  return undefined;
}

function quotaHeaders(reply: FastifyReply, quota: QuotaFigures): void {
  reply.header('x-ratelimit-limit', String(quota.limit));
  reply.header('x-ratelimit-remaining', String(quota.remaining));
  reply.header('x-ratelimit-additional-total', String(quota.additionalTotal));
  reply.header('x-ratelimit-reset', String(quota.resetMs));
}

/**
 * The data API's gate: `x-api-key` must name a known key (401 otherwise; a malformed key is hashed
 * and looked up like any other, so it answers exactly as an unknown one), the key must be active
 * and of this environment (403), and its monthly quota must allow the request (429 with
 * Retry-After, unless overage was arranged). Every answer to a known key, errors included, carries
 * the four quota headers; the key itself never reaches a log or the store.
 */
export function apiKeyAuth(options: ApiKeyAuthOptions): ApiKeyHook {
  const { keys, meter, network, clock, metrics } = options;
  return async (request, reply) => {
    const header = request.headers['x-api-key'];
    if (header === undefined || header === '') throw new AppError('API_KEY_MISSING');
    const key = await keys.byHash(hashApiKey(Array.isArray(header) ? header.join(',') : header));
    if (key === undefined) throw new AppError('API_KEY_INVALID');
    const refusal = refusalOf(key, network);
    if (refusal !== undefined) {
      quotaHeaders(reply, await meter.peek(key));
      throw new AppError(refusal);
    }
    const verdict = await meter.admit(key);
    quotaHeaders(reply, verdict);
    if (!verdict.admitted) {
      metrics.dataApiQuotaRefused();
      const seconds = Math.max(1, Math.ceil((verdict.resetMs - clock.now()) / 1_000));
      reply.header('retry-after', String(seconds));
      throw new AppError(
        'QUOTA_EXCEEDED',
        `The monthly quota of ${verdict.limit} requests is used up; it resets in ${seconds} s`,
      );
    }
  };
}
