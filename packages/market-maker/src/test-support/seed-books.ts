import type { QuotedBookItem } from '../tick-grid.js';

const TOKENS = {
  WHBAR: { id: '0.0.1001', address: '0x00000000000000000000000000000000000003e9', decimals: 8 },
  USDC: { id: '0.0.1002', address: '0x00000000000000000000000000000000000003ea', decimals: 6 },
  SAUCE: { id: '0.0.1003', address: '0x00000000000000000000000000000000000003eb', decimals: 6 },
} as const;

type Grid = Pick<QuotedBookItem, 'tickStep' | 'sizeStep' | 'lotSize' | 'minNotional'>;

function item(id: number, base: keyof typeof TOKENS, quote: keyof typeof TOKENS, grid: Grid): QuotedBookItem {
  return {
    id,
    // Books 1 and 2 route into their pools.
    isAMMEnabled: id === 3 ? 0 : 1,
    baseTokenId: TOKENS[base].id,
    quoteTokenId: TOKENS[quote].id,
    baseTokenEvmAddress: TOKENS[base].address,
    quoteTokenEvmAddress: TOKENS[quote].address,
    baseTokenDecimals: TOKENS[base].decimals,
    quoteTokenDecimals: TOKENS[quote].decimals,
    quotePrice: '0',
    ...grid,
  };
}

/**
 * The devnet seed's three books, as much of them as the bot reads, before any trade: the lot size
 * and minimum notional in raw units, as `GET /books` serves them.
 */
export const SEED_BOOKS = {
  whbarUsdc: item(1, 'WHBAR', 'USDC', { tickStep: '0.00001', sizeStep: '0.1', lotSize: '10000000', minNotional: '100000' }),
  sauceUsdc: item(2, 'SAUCE', 'USDC', { tickStep: '0.00001', sizeStep: '1', lotSize: '10000000', minNotional: '1000000' }),
  sauceWhbar: item(3, 'SAUCE', 'WHBAR', { tickStep: '0.0001', sizeStep: '1', lotSize: '10000000', minNotional: '100000000' }),
} as const;
