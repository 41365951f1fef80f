import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { FeeRates, FeeSide } from '../order-types.js';
import { type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';
import { readFees } from '../wire-compat.js';

export interface GetFeesParameters {
  readonly orderbookId: OrderbookId;
  /** `maker` (the server's default) or `taker`. */
  readonly side?: FeeSide | undefined;
}

export type GetFeesReturnType = FeeRates;

export type GetFeesErrorType = InvalidParameterError | AccountRequestErrorType;

/** The account's fee rates on a book, in pips (`GET /fees/:orderbookId`): the operator's override, else the book's. */
export async function getFees(client: Client, parameters: GetFeesParameters): Promise<GetFeesReturnType> {
  return readFees(
    await request<GetFeesReturnType>(client, {
      path: ['fees', orderbookIdParameter(parameters.orderbookId)],
      query: { side: parameters.side },
      access: 'account',
    }),
  );
}
