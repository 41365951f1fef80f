import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { OcoLink, SaveOrdersResult, SignedOrder } from '../order-types.js';
import { batchParameter } from '../utils/parameters.js';
import { readSavedOrder } from '../wire-compat.js';
import { MAX_ORDERS_PER_REQUEST } from './build-orders.js';

export interface SaveOrdersParameters {
  /** 1 to 250 signed orders, as {@link signOrders} returns them. */
  readonly items: readonly SignedOrder[];
  /** Pairs of item indexes: when one of a pair trades or ends, the other is cancelled. */
  readonly ocoLinks?: readonly OcoLink[] | undefined;
}

export type SaveOrdersReturnType = SaveOrdersResult;

/**
 * All or nothing: the first refused item is an ApiError 400 (403 for another account's order) whose
 * `index` names it, and no order of the batch reaches a book.
 */
export type SaveOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Saves signed orders (`POST /orders/save`); they are stored and matched before the answer, which
 * gives each order's id and status. Saving the same signed order again returns it as it stands.
 */
export async function saveOrders(client: Client, parameters: SaveOrdersParameters): Promise<SaveOrdersReturnType> {
  const items = batchParameter(parameters.items, 'items', MAX_ORDERS_PER_REQUEST);
  const { ocoLinks } = parameters;
  const result = await request<SaveOrdersReturnType>(client, {
    method: 'POST',
    path: ['orders', 'save'],
    body: ocoLinks === undefined ? { items } : { items, ocoLinks },
    access: 'account',
  });
  return { ...result, orders: result.orders.map(readSavedOrder) };
}
