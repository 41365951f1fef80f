import { type Client, type RequestErrorType, request } from '../client.js';
import { InvalidParameterError } from '../errors.js';
import type { SettlementProof } from '../types.js';

export interface GetSettlementProofParameters {
  /** A settlement transaction as the tape (`transactionHash`) or an order history names it. */
  readonly transactionHash: string;
}

export type GetSettlementProofReturnType = SettlementProof;

/** A transaction the service saw no reactor event in is an ApiError 404 `NOT_FOUND`. */
export type GetSettlementProofErrorType = InvalidParameterError | RequestErrorType;

/**
 * What the service kept of a settlement transaction (`GET /settlements/:transactionHash`): the
 * reactor's events as the chain gave them, with the fills they settled. It answers after the
 * node has forgotten the receipt; check it with {@link verifySettlementProof}.
 *
 * @example
 * const { trades } = await getTrades(client, { orderbookId: 1 });
 * const proof = await getSettlementProof(client, { transactionHash: trades[0].transactionHash });
 */
export async function getSettlementProof(
  client: Client,
  parameters: GetSettlementProofParameters,
): Promise<GetSettlementProofReturnType> {
  const { transactionHash } = parameters;
  if (!/^0x[0-9a-fA-F]{64}$/.test(transactionHash)) {
    throw new InvalidParameterError('transactionHash', 'transactionHash must be 0x and 64 hex digits', {
      details: `got ${JSON.stringify(transactionHash).slice(0, 80)}; an unsettled trade's is empty`,
    });
  }
  return request<GetSettlementProofReturnType>(client, { path: ['settlements', transactionHash] });
}
