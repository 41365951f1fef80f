import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type TokenWire, tokenOf } from '../normalise.js';
import type { Token } from '../types.js';

export type GetKnownTokensReturnType = DataResult<Token[]>;

export type GetKnownTokensErrorType = DataRequestErrorType;

/** The curated list of known tokens (`GET /tokens/known`). */
export function getKnownTokens(client: DataClient): Promise<GetKnownTokensReturnType> {
  return client.get<TokenWire<Token>[]>({ path: ['tokens', 'known'] }).then(mapItems(tokenOf<Token>));
}
