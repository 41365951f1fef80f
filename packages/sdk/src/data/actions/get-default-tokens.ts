import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Token } from '../types.js';

export type GetDefaultTokensReturnType = DataResult<Token[]>;

export type GetDefaultTokensErrorType = DataRequestErrorType;

/** The curated list of tokens shown by default (`GET /tokens/default`). */
export function getDefaultTokens(client: DataClient): Promise<GetDefaultTokensReturnType> {
  return client.get<Token[]>({ path: ['tokens', 'default'] });
}
