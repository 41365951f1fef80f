import { type Client, type RequestErrorType, request } from '../client.js';
import type { SignatureDomain } from '../types.js';

export type GetSignatureDomainReturnType = SignatureDomain;

export type GetSignatureDomainErrorType = RequestErrorType;

/**
 * The EIP-712 domain that orders of this environment are signed against (`GET /signature/domain`);
 * `verifyingContract` is the reactor.
 *
 * @example
 * const domain = await getSignatureDomain(client);
 */
export async function getSignatureDomain(client: Client): Promise<GetSignatureDomainReturnType> {
  return request<GetSignatureDomainReturnType>(client, { path: ['signature', 'domain'] });
}
