import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type TokenWire, tokenOf } from '../normalise.js';
import type { TokenCompact } from '../types.js';

export type GetTokensReturnType = DataResult<TokenCompact[]>;

export type GetTokensErrorType = DataRequestErrorType;

/** Every listed token with its price in tinybar and USD (`GET /tokens`). */
export function getTokens(client: DataClient): Promise<GetTokensReturnType> {
  return client.get<TokenWire<TokenCompact>[]>({ path: ['tokens'] }).then(mapItems(tokenOf<TokenCompact>));
}
