import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyGate } from '../../../application/api-keys/api-key-gate.js';
import type { QuotaFigures } from '../../../application/api-keys/quota-meter.js';

export type ApiKeyHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

function quotaHeaders(reply: FastifyReply, quota: QuotaFigures): void {
  reply.header('x-ratelimit-limit', String(quota.limit));
  reply.header('x-ratelimit-remaining', String(quota.remaining));
  reply.header('x-ratelimit-additional-total', String(quota.additionalTotal));
  reply.header('x-ratelimit-reset', String(quota.resetMs));
}

/**
 * The data API's gate over HTTP: `x-api-key` goes to the gate (401 for a missing or unknown key,
 * 403 for one that is not active or of another environment, 429 with Retry-After for a used-up
 * quota); every answer to a known key, errors included, carries the four quota headers.
 */
export function apiKeyHook(gate: ApiKeyGate): ApiKeyHook {
  return async (request, reply) => {
    const header = request.headers['x-api-key'];
    const pass = await gate.pass(Array.isArray(header) ? header.join(',') : header);
    quotaHeaders(reply, pass.quota);
    if (pass.retryAfterSeconds !== null) reply.header('retry-after', String(pass.retryAfterSeconds));
    if (pass.refusal !== null) throw pass.refusal;
  };
}
