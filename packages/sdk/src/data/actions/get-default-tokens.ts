import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type TokenStatsWire, tokenStatsOf } from '../normalise.js';
import type { TokenStats } from '../types.js';

export type GetDefaultTokensReturnType = DataResult<TokenStats[]>;

export type GetDefaultTokensErrorType = DataRequestErrorType;

/**
 * The tokens shown by default, each with its pool liquidity and the change of its USD price over
 * an hour, a day and a week (`GET /tokens/default`).
 */
export function getDefaultTokens(client: DataClient): Promise<GetDefaultTokensReturnType> {
  return client.get<TokenStatsWire[]>({ path: ['tokens', 'default'] }).then(mapItems(tokenStatsOf));
}
