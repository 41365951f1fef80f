import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { CancelResult } from '../order-types.js';
import { type RawAmount, rawAmountParameter } from '../utils/parameters.js';
import { readCancelResult } from '../wire-compat.js';

export interface CancelAllOrdersParameters {
  /** Every open order with a lower nonce is cancelled, and no order with a lower nonce can be saved later. */
  readonly nonceFloor: RawAmount;
}

export type CancelAllOrdersReturnType = CancelResult;

export type CancelAllOrdersErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Raises the account's nonce floor (`POST /cancel/all`); it never goes down. Build a new order first
 * and pass its nonce to cancel everything older while keeping it.
 */
export async function cancelAllOrders(client: Client, parameters: CancelAllOrdersParameters): Promise<CancelAllOrdersReturnType> {
  const nonceFloor = rawAmountParameter(parameters.nonceFloor, 'nonceFloor');
  return readCancelResult(
    await request<CancelAllOrdersReturnType>(client, {
      method: 'POST',
      path: ['cancel', 'all'],
      body: { nonceFloor },
      access: 'account',
    }),
  );
}
