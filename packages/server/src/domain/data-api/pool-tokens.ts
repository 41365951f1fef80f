import { isLedgerId, longZeroAddress } from '@dex/core';
import type { PoolTokens } from './pool-value.js';

/** The address a pool's token id stands for: its long-zero address for a ledger id, else the id itself (an address). */
function addressOf(id: string): string {
  return isLedgerId(id) ? longZeroAddress(id) : id.toLowerCase();
}

/**
 * A pool with its tokens named as the registry names them: the listed token at each token's
 * address (a pair records its tokens by address: contract-ids.ts), else the id as recorded.
 */
export function listedPool<T extends PoolTokens>(pool: T, idByAddress: ReadonlyMap<string, string>): T {
  const tokenAId = idByAddress.get(addressOf(pool.tokenAId)) ?? pool.tokenAId;
  const tokenBId = idByAddress.get(addressOf(pool.tokenBId)) ?? pool.tokenBId;
  return tokenAId === pool.tokenAId && tokenBId === pool.tokenBId ? pool : { ...pool, tokenAId, tokenBId };
}
