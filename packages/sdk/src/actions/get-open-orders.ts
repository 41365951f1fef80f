import type { Client } from '../client.js';
import { OPEN_STATUSES, type OrderListItem } from '../order-types.js';
import type { OrderbookId } from '../utils/parameters.js';
import { type GetOrdersErrorType, getOrderPages } from './get-orders.js';

export interface GetOpenOrdersParameters {
  /** Only this book's orders; every book when absent. */
  readonly orderbookId?: OrderbookId | undefined;
}

export type GetOpenOrdersReturnType = OrderListItem[];

export type GetOpenOrdersErrorType = GetOrdersErrorType;

/**
 * Every open and partly filled order of the account, newest first, read page by page (an account
 * holds at most 5,000). With a settlement chain an order whose cancellation still waits for the
 * reactor keeps its last status, so it is listed here until the cancellation is final.
 */
export async function getOpenOrders(client: Client, parameters: GetOpenOrdersParameters = {}): Promise<GetOpenOrdersReturnType> {
  const orders: OrderListItem[] = [];
  for await (const { page } of getOrderPages(client, { status: OPEN_STATUSES, orderbookId: parameters.orderbookId })) {
    orders.push(...page.orders);
  }
  return orders;
}
