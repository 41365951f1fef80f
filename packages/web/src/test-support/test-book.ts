import type { BookForOrders } from '@dex/sdk';
import type { QuoteBook } from '../market/quote-request.js';

/**
 * 8-decimal WHBAR against 6-decimal USDC, a tick of 0.00001, sizes in steps of 0.1 from 1, at least
 * 1 quote: the lot and minimum notional in raw units, as `GET /books` serves them.
 */
export const TEST_BOOK: QuoteBook & BookForOrders = {
  id: 1,
  baseTokenEvmAddress: '0x00000000000000000000000000000000000a0001',
  quoteTokenEvmAddress: '0x00000000000000000000000000000000000a0002',
  baseTokenDecimals: 8,
  quoteTokenDecimals: 6,
  baseTokenSymbol: 'WHBAR',
  quoteTokenSymbol: 'USDC',
  baseTokenId: '0.0.1',
  quoteTokenId: '0.0.2',
  isAMMEnabled: 0,
  tickStep: '0.00001',
  sizeStep: '0.1',
  lotSize: '100000000',
  minNotional: '1000000',
};
