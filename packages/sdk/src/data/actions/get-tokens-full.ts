import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Token } from '../types.js';

export type GetTokensFullReturnType = DataResult<Token[]>;

export type GetTokensFullErrorType = DataRequestErrorType;

/** Every listed token with its description fields (`GET /tokens/full`). */
export function getTokensFull(client: DataClient): Promise<GetTokensFullReturnType> {
  return client.get<Token[]>({ path: ['tokens', 'full'] });
}
