import type { OrderbookItem } from '@dex/sdk';

const TOKENS = {
  WHBAR: { id: '0.0.1001', address: '0x00000000000000000000000000000000000003e9', decimals: 8 },
  USDC: { id: '0.0.1002', address: '0x00000000000000000000000000000000000003ea', decimals: 6 },
  SAUCE: { id: '0.0.1003', address: '0x00000000000000000000000000000000000003eb', decimals: 6 },
} as const;

type TokenSymbol = keyof typeof TOKENS;

function item(
  id: number,
  base: TokenSymbol,
  quote: TokenSymbol,
  grid: Pick<OrderbookItem, 'tickStep' | 'sizeStep' | 'lotSize' | 'minNotional'>,
): OrderbookItem {
  return {
    id,
    baseTokenId: TOKENS[base].id,
    quoteTokenId: TOKENS[quote].id,
    baseTokenEvmAddress: TOKENS[base].address,
    quoteTokenEvmAddress: TOKENS[quote].address,
    status: 'OPEN',
    isAMMEnabled: 0,
    isMarketHalted: 0,
    baseTokenSymbol: base,
    quoteTokenSymbol: quote,
    baseTokenDecimals: TOKENS[base].decimals,
    quoteTokenDecimals: TOKENS[quote].decimals,
    ...grid,
    quotePrice: null,
    quotePrice24hPct: null,
    quotePrice24hHigh: null,
    quotePrice24hLow: null,
    baseVol24h: '0',
    quoteVol24h: '0',
    takerFeePips: 1000,
    makerFeePips: 0,
    createdAt: 0,
    updatedAt: 0,
  };
}

/** The devnet seed's three books as `GET /books` lists them before any trade. */
export const SEED_BOOKS = {
  whbarUsdc: item(1, 'WHBAR', 'USDC', { tickStep: '0.00001', sizeStep: '0.1', lotSize: '0.1', minNotional: '0.1' }),
  sauceUsdc: item(2, 'SAUCE', 'USDC', { tickStep: '0.00001', sizeStep: '1', lotSize: '10', minNotional: '1' }),
  sauceWhbar: item(3, 'SAUCE', 'WHBAR', { tickStep: '0.0001', sizeStep: '1', lotSize: '10', minNotional: '1' }),
} as const;
