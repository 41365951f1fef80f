import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { TokenCompact } from '../types.js';

export type GetTokensReturnType = DataResult<TokenCompact[]>;

export type GetTokensErrorType = DataRequestErrorType;

/** Every listed token with its price in tinybar and USD (`GET /tokens`). */
export function getTokens(client: DataClient): Promise<GetTokensReturnType> {
  return client.get<TokenCompact[]>({ path: ['tokens'] });
}
