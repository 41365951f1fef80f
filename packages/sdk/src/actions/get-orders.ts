import { type AccountRequestErrorType, type Client, type ClientRequestOptions, request, requestAnswer } from '../client.js';
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

function ordersRequest(parameters: GetOrdersParameters): ClientRequestOptions {
  const { status, orderbookId } = parameters;
  return {
    path: ['orders'],
    query: {
      status: typeof status === 'string' || status === undefined ? status : status.join(','),
      orderbookId: orderbookId === undefined ? undefined : orderbookIdParameter(orderbookId),
      page: countParameter(parameters.page, 'page'),
      limit: countParameter(parameters.limit, 'limit'),
    },
    access: 'account',
  };
}

/**
 * The account's orders, newest first (`GET /orders`). `lastUpdateId` is the newest order event the
 * listing reflects: what a client recovering after a reconnect compares stream events with.
 */
export async function getOrders(client: Client, parameters: GetOrdersParameters = {}): Promise<GetOrdersReturnType> {
  return request<GetOrdersReturnType>(client, ordersRequest(parameters));
}

/**
 * {@link getOrders} with the server's time of the answer (its `Date` header, whole seconds, in unix
 * ms; undefined when absent): what a stream reconciling with the listing measures "since" by.
 */
export async function getOrdersAt(
  client: Client,
  parameters: GetOrdersParameters,
): Promise<{ readonly page: OrdersPage; readonly serverTime: number | undefined }> {
  const { body, headers } = await requestAnswer<OrdersPage>(client, ordersRequest(parameters));
  const date = Date.parse(headers.get('date') ?? '');
  return { page: body, serverTime: Number.isNaN(date) ? undefined : date };
}
