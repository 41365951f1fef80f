import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { DepthSnapshot } from '../types.js';
import { type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';
import { readDepth } from '../wire-compat.js';

export interface GetDepthParameters {
  readonly orderbookId: OrderbookId;
}

export type GetDepthReturnType = DepthSnapshot;

/** An unknown or closed book is an ApiError with status 404 and code `ORDERBOOK_NOT_FOUND`. */
export type GetDepthErrorType = InvalidParameterError | RequestErrorType;

/**
 * Full depth snapshot of an open book, levels best first (`GET /depth/:orderbookId`).
 *
 * @example
 * const { bids, asks, lastUpdateId } = await getDepth(client, { orderbookId: 1 });
 */
export async function getDepth(client: Client, parameters: GetDepthParameters): Promise<GetDepthReturnType> {
  return readDepth(await request<GetDepthReturnType>(client, { path: ['depth', orderbookIdParameter(parameters.orderbookId)] }));
}
