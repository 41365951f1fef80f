import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import type { Token } from '../types.js';

export type GetKnownTokensReturnType = DataResult<Token[]>;

export type GetKnownTokensErrorType = DataRequestErrorType;

/** The curated list of known tokens (`GET /tokens/known`). */
export function getKnownTokens(client: DataClient): Promise<GetKnownTokensReturnType> {
  return client.get<Token[]>({ path: ['tokens', 'known'] });
}
