import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { TokenPriceChanges } from '../types.js';

export type GetTokenPriceChangesReturnType = DataResult<TokenPriceChanges>;

export type GetTokenPriceChangesErrorType = DataRequestErrorType;

/** Percent change of each priced token over 24 hours, by token id (`GET /tokens/price-change`). */
export function getTokenPriceChanges(client: DataClient): Promise<GetTokenPriceChangesReturnType> {
  return client.get<TokenPriceChanges>({ path: ['tokens', 'price-change'] });
}
