import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { OrderHistory } from '../order-types.js';
import { idParameter } from '../utils/parameters.js';

export interface GetOrderHistoryParameters {
  readonly orderId: number | string;
}

export type GetOrderHistoryReturnType = OrderHistory;

/** Another account's order, or an unknown id, is an ApiError 404 `ORDER_NOT_FOUND`. */
export type GetOrderHistoryErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Every event of one of the account's orders, oldest first (`GET /orders/:orderId/history`): its
 * creation, fills with their settlement transactions, and how it ended.
 */
export async function getOrderHistory(client: Client, parameters: GetOrderHistoryParameters): Promise<GetOrderHistoryReturnType> {
  const orderId = idParameter(parameters.orderId, 'orderId');
  return request<GetOrderHistoryReturnType>(client, { path: ['orders', String(orderId), 'history'], access: 'account' });
}
