import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type TokenWire, tokenOf } from '../normalise.js';
import type { Token } from '../types.js';

export type GetTokensFullReturnType = DataResult<Token[]>;

export type GetTokensFullErrorType = DataRequestErrorType;

/** Every listed token with its description fields (`GET /tokens/full`). */
export function getTokensFull(client: DataClient): Promise<GetTokensFullReturnType> {
  return client.get<TokenWire<Token>[]>({ path: ['tokens', 'full'] }).then(mapItems(tokenOf<Token>));
}
