import type { Eip712Domain, SelfTradePrevention } from '@dex/core';
import type { Client } from '../client.js';
import type { OcoLink, OrderRequest, SaveOrdersResult } from '../order-types.js';
import { type BuildOrdersErrorType, buildOrders } from './build-orders.js';
import { type SaveOrdersErrorType, saveOrders } from './save-orders.js';
import { type SignOrdersErrorType, signOrders } from './sign-orders.js';

export interface PlaceOrdersParameters {
  /** 1 to 250 requests; {@link limitOrderRequest} makes one from a display price and size. */
  readonly orders: readonly OrderRequest[];
  /** Pairs of request indexes linked one-cancels-other. */
  readonly ocoLinks?: readonly OcoLink[] | undefined;
  readonly domain?: Eip712Domain | undefined;
  /** See {@link signOrders}. */
  readonly maxFeePips?: number | undefined;
  /**
   * What matching does when an order would trade with one of the account's own resting orders:
   * EXPIRE_MAKER (the server's default) cancels the resting one, EXPIRE_TAKER this one, EXPIRE_BOTH both.
   */
  readonly selfTradePrevention?: SelfTradePrevention | undefined;
}

export type PlaceOrdersReturnType = SaveOrdersResult;

export type PlaceOrdersErrorType = BuildOrdersErrorType | SignOrdersErrorType | SaveOrdersErrorType;

/**
 * Builds, signs (on this side, each order checked against its request) and saves orders in one
 * call. If the save fails on a network error the orders may or may not be saved: saving the same
 * signed orders again is safe (saves are idempotent by order hash), placing them again is not.
 *
 * @example
 * const book = (await getBooks(client)).orderbooks[0];
 * const { orders } = await placeOrders(client, {
 *   orders: [limitOrderRequest(book, { side: 'sell', price: '0.25', size: '10' })],
 * });
 */
export async function placeOrders(client: Client, parameters: PlaceOrdersParameters): Promise<PlaceOrdersReturnType> {
  const requests = parameters.orders;
  const built = await buildOrders(client, { orders: requests });
  const items = await signOrders(client, {
    orders: built,
    requests,
    domain: parameters.domain,
    maxFeePips: parameters.maxFeePips,
  });
  const { selfTradePrevention } = parameters;
  return saveOrders(client, {
    items: selfTradePrevention === undefined ? items : items.map((item) => ({ ...item, selfTradePrevention })),
    ocoLinks: parameters.ocoLinks,
  });
}
