import { longZeroAddress } from '@dex/core';
import { DEFAULT_FEES } from '../../domain/markets/default-fees.js';
import { NATIVE_COIN_ID } from '../../domain/markets/market.js';
import type { NewBook, NewToken } from '../../domain/markets/market-records.js';
import type { Store } from '../../ports/store/ports.js';

function token(id: string, symbol: string, name: string, decimals: number, description: string): NewToken {
  return {
    id,
    evmAddress: longZeroAddress(id),
    symbol,
    name,
    decimals,
    icon: null,
    description,
    website: null,
    dueDiligenceComplete: true,
    isFeeOnTransfer: false,
    sentinelReport: null,
    twitterHandle: null,
    circulatingSupply: null,
    isKnown: true,
    isDefault: true,
  };
}

/** Ids of the devnet's wrapped native coin, USD stablecoin and protocol token (the data API prices with them). */
export const DEVNET_NATIVE_TOKEN_ID = '0.0.1001';
export const DEVNET_USD_TOKEN_ID = '0.0.1002';
export const DEVNET_PROTOCOL_TOKEN_ID = '0.0.1003';
export { NATIVE_COIN_ID } from '../../domain/markets/market.js';

/**
 * The devnet's tokens: the wrapped native coin, a USD stablecoin, the protocol token, and the
 * native coin itself (listed last, so the ids and order of the first three stay as they were).
 */
export const DEVNET_TOKENS: readonly NewToken[] = [
  token(DEVNET_NATIVE_TOKEN_ID, 'WHBAR', 'Wrapped HBAR', 8, 'The native coin wrapped as a token (1 HBAR = 100,000,000 tinybar).'),
  token(DEVNET_USD_TOKEN_ID, 'USDC', 'USD Coin', 6, 'A dollar stablecoin (devnet issue).'),
  token(DEVNET_PROTOCOL_TOKEN_ID, 'SAUCE', 'SaucerSwap', 6, 'The protocol token (devnet issue).'),
  token(NATIVE_COIN_ID, 'HBAR', 'HBAR', 8, 'The native coin (1 HBAR = 100,000,000 tinybar); its books settle in WHBAR.'),
];

/**
 * The devnet's markets, their lot sizes and minimum notionals as operators write them (display
 * decimals). Every grid makes one tick times one size step a whole number of quote raw units, so
 * their fills are exact; finer grids trade too (`test-support/live-books.ts`).
 */
export const DEVNET_BOOKS: readonly NewBook[] = [
  {
    baseTokenId: '0.0.1001',
    quoteTokenId: '0.0.1002',
    // Takers that opt in are routed into the pool the devnet seeds for this pair.
    isAmmEnabled: true,
    tickStep: '0.00001',
    sizeStep: '0.1',
    lotSize: '0.1',
    minNotional: '0.1',
    ...DEFAULT_FEES,
  },
  {
    baseTokenId: '0.0.1003',
    quoteTokenId: '0.0.1002',
    // Takers that opt in are routed into the pool the devnet seeds for this pair.
    isAmmEnabled: true,
    tickStep: '0.00001',
    sizeStep: '1',
    lotSize: '10',
    minNotional: '1',
    ...DEFAULT_FEES,
  },
  {
    baseTokenId: '0.0.1003',
    quoteTokenId: '0.0.1001',
    isAmmEnabled: false,
    tickStep: '0.0001',
    sizeStep: '1',
    lotSize: '10',
    minNotional: '1',
    ...DEFAULT_FEES,
  },
  {
    // The native coin, as the live service's book 1 lists it; it settles as WHBAR (docs/settlement.md).
    baseTokenId: NATIVE_COIN_ID,
    quoteTokenId: '0.0.1002',
    // Book 1 routes into the WHBAR/USDC pool; one book per pool.
    isAmmEnabled: false,
    tickStep: '0.00001',
    sizeStep: '0.1',
    lotSize: '0.1',
    minNotional: '0.1',
    ...DEFAULT_FEES,
  },
];

/** Creates the devnet markets in an empty store; a store that has any token is left alone. */
export async function seedDevnet(store: Pick<Store, 'tokens' | 'books'>, now: number): Promise<boolean> {
  if ((await store.tokens.list()).length > 0) return false;
  for (const token of DEVNET_TOKENS) await store.tokens.insert(token, now);
  for (const book of DEVNET_BOOKS) await store.books.insert(book, now);
  return true;
}
