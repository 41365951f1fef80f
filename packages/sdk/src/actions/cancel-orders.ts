import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { CancelResult } from '../order-types.js';
import { batchParameter, idParameter } from '../utils/parameters.js';
import { readCancelResult } from '../wire-compat.js';

/** Most order ids one cancellation may carry. */
export const MAX_CANCELS_PER_REQUEST = 500;

export interface CancelOrdersParameters {
  /** 1 to 500 order ids. */
  readonly orderIds: readonly (number | string)[];
}

export type CancelOrdersReturnType = CancelResult;

export type CancelOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Cancels orders (`POST /cancel`). They leave their books at once; an id that is not the account's
 * or already ended comes back in `skipped` (why: `skippedDetails`). The cancellation is final when `ORDER_CANCELED` arrives
 * ({@link watchUserEvents}) or shows in the order's history.
 */
export async function cancelOrders(client: Client, parameters: CancelOrdersParameters): Promise<CancelOrdersReturnType> {
  const orderIds = batchParameter(parameters.orderIds, 'orderIds', MAX_CANCELS_PER_REQUEST).map((id, index) =>
    idParameter(id, `orderIds[${index}]`),
  );
  return readCancelResult(
    await request<CancelOrdersReturnType>(client, { method: 'POST', path: ['cancel'], body: { orderIds }, access: 'account' }),
  );
}
