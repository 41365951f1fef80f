import { type AccountRequestErrorType, type Client, type ClientRequestOptions, request, requestAnswer } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { OrderStatus, OrdersPage } from '../order-types.js';
import { countParameter, type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';
import { readOrdersPage } from '../wire-compat.js';

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

/** Servers of both generations take `OPEN` for a resting order; older ones refuse `ACTIVE`. */
const filterWord = (status: OrderStatus): string => (status === 'ACTIVE' ? 'OPEN' : status);

function ordersRequest(parameters: GetOrdersParameters): ClientRequestOptions {
  const { status, orderbookId } = parameters;
  return {
    path: ['orders'],
    query: {
      status: status === undefined ? undefined : (typeof status === 'string' ? [status] : status).map(filterWord).join(','),
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
  return readOrdersPage(await request<GetOrdersReturnType>(client, ordersRequest(parameters)));
}

/** The most orders `GET /orders` lists in one page. */
const LARGEST_PAGE = 500;

/** One page of {@link getOrderPages}, with the server's time of the answer. */
export interface OrdersPageAt {
  readonly page: OrdersPage;
  /** The answer's `Date` header (whole seconds) in unix ms; undefined when absent. */
  readonly serverTime: number | undefined;
}

/**
 * Every page of the account's listing in turn, newest first, 500 orders a page, up to the last
 * page (the caller may stop early). Each comes with the server's time of its answer: what a stream
 * reconciling with the listing measures "since" by.
 */
export async function* getOrderPages(
  client: Client,
  parameters: Omit<GetOrdersParameters, 'page' | 'limit'> = {},
): AsyncGenerator<OrdersPageAt> {
  for (let page = 1; ; page++) {
    const answer = await requestAnswer<OrdersPage>(client, ordersRequest({ ...parameters, page, limit: LARGEST_PAGE }));
    const body = readOrdersPage(answer.body);
    const date = Date.parse(answer.headers.get('date') ?? '');
    yield { page: body, serverTime: Number.isNaN(date) ? undefined : date };
    if (body.orders.length < LARGEST_PAGE || page * LARGEST_PAGE >= body.total) return;
  }
}
