import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { OrderStatus, OrdersPage } from '../order-types.js';
import { countParameter, type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';

export interface GetOrdersParameters {
  /** One status or several; every status when absent. */
  readonly status?: OrderStatus | readonly OrderStatus[] | undefined;
  readonly orderbookId?: OrderbookId | undefined;
  /** 1-based page; the server's default is 1. */
  readonly page?: number | undefined;
  /** Orders per page; the server's default is 50, at most 500. */
  readonly limit?: number | undefined;
}

export type GetOrdersReturnType = OrdersPage;

export type GetOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * The account's orders, newest first (`GET /orders`). `lastUpdateId` is the newest order event the
 * listing reflects: what a client recovering after a reconnect compares stream events with.
 */
export async function getOrders(client: Client, parameters: GetOrdersParameters = {}): Promise<GetOrdersReturnType> {
  const { status, orderbookId } = parameters;
  return request<GetOrdersReturnType>(client, {
    path: ['orders'],
    query: {
      status: typeof status === 'string' || status === undefined ? status : status.join(','),
      orderbookId: orderbookId === undefined ? undefined : orderbookIdParameter(orderbookId),
      page: countParameter(parameters.page, 'page'),
      limit: countParameter(parameters.limit, 'limit'),
    },
    access: 'account',
  });
}
