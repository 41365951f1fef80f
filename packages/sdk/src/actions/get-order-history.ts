import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { HistoryEvent, OrderHistory } from '../order-types.js';
import { idParameter } from '../utils/parameters.js';
import { readHistory } from '../wire-compat.js';

export interface GetOrderHistoryParameters {
  readonly orderId: number | string;
}

export type GetOrderHistoryReturnType = OrderHistory;

/** Another account's order, or an unknown id, is an ApiError 404 `ORDER_NOT_FOUND`. */
export type GetOrderHistoryErrorType = InvalidParameterError | AccountRequestErrorType;

/** The largest page of history the server gives. */
const HISTORY_PAGE = 1_000;

/**
 * Every event of one of the account's orders, oldest first (`GET /orders/:orderId/history`, read
 * page by page): its creation, fills with their settlement transactions, and how it ended.
 */
export async function getOrderHistory(client: Client, parameters: GetOrderHistoryParameters): Promise<GetOrderHistoryReturnType> {
  const orderId = String(idParameter(parameters.orderId, 'orderId'));
  const events: HistoryEvent[] = [];
  for (let page = 1; ; page++) {
    const history = readHistory(
      await request<OrderHistory>(client, {
        path: ['orders', orderId, 'history'],
        query: { page, limit: HISTORY_PAGE },
        access: 'account',
      }),
    );
    events.push(...history.events);
    // Servers that do not page send every event at once; the total tells when all are here.
    if (history.events.length === 0 || events.length >= history.total) return { ...history, events };
  }
}
