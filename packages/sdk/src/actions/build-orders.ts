import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { BuiltOrder, OrderRequest } from '../order-types.js';
import { batchParameter } from '../utils/parameters.js';

/** Most orders one build or save may carry. */
export const MAX_ORDERS_PER_REQUEST = 250;

export interface BuildOrdersParameters {
  /** 1 to 250 requests; amounts are raw integer strings. */
  readonly orders: readonly OrderRequest[];
}

export type BuildOrdersReturnType = BuiltOrder[];

/** A request the book refuses is an ApiError 400 whose `index` names it (`ORDER_OFF_GRID`, `ORDER_TOO_SMALL`...). */
export type BuildOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Has the server build orders to sign (`POST /orders/build`): it assigns nonces, clamps deadlines
 * and sets the account's fee caps. Nothing is stored. Sign with {@link signOrders}, or use
 * {@link placeOrders} for build, sign and save in one call.
 */
export async function buildOrders(client: Client, parameters: BuildOrdersParameters): Promise<BuildOrdersReturnType> {
  const orderRequests = batchParameter(parameters.orders, 'orders', MAX_ORDERS_PER_REQUEST);
  const answer = await request<{ orders: BuiltOrder[] }>(client, {
    method: 'POST',
    path: ['orders', 'build'],
    body: { orderRequests },
    access: 'account',
  });
  return answer.orders;
}
