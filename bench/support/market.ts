/** What the benchmarks read of a book over HTTP: its grid and tokens, and the orders the server builds. */
import { MarketGrid, type WireOrder } from '@dex/core';
import type { BooksPage, OrderbookItem } from '../../packages/sdk/src/types.js';
import type { HttpClient } from './http-client.js';

/**
 * The book the benchmarks trade: book 1 of the devnet seed (WHBAR/USDC, tick 0.00001, size step
 * 0.1 WHBAR). Makers rest at `askTicks`/`bidTicks`, either side of 1.00000, `makerSteps` each; a
 * taker of `takerSteps` takes half of one.
 */
export const BENCH_BOOK = { id: 1, askTicks: 100_010, bidTicks: 99_990, makerSteps: 10, takerSteps: 5 } as const;
/** Most orders per build or save request. */
export const MAX_BATCH = 250;

export interface Market {
  readonly grid: MarketGrid;
  readonly base: string;
  readonly quote: string;
  readonly baseDecimals: number;
  readonly quoteDecimals: number;
}

/** An order as `POST /orders/build` answers it. */
export interface BuiltOrder extends WireOrder {
  meta: { orderbookId: number; type: 'LIMIT' | 'MARKET'; side: 'buy' | 'sell'; orderHash: string };
}

export async function readBook(client: HttpClient, bookId: number): Promise<OrderbookItem> {
  const { orderbooks } = await client.json<BooksPage>('GET', '/books?limit=100');
  const book = orderbooks.find((item) => item.id === bookId);
  if (book === undefined) throw new Error(`the server has no book ${bookId}`);
  return book;
}

export async function readMarket(client: HttpClient, bookId: number): Promise<Market> {
  const book = await readBook(client, bookId);
  if (book.baseTokenDecimals === null || book.quoteTokenDecimals === null) throw new Error(`book ${bookId} lacks token decimals`);
  const grid = new MarketGrid({
    baseDecimals: book.baseTokenDecimals,
    quoteDecimals: book.quoteTokenDecimals,
    tickStep: book.tickStep,
    sizeStep: book.sizeStep,
    // Raw integers in the base and quote token, as GET /books serves them.
    lotSize: BigInt(book.lotSize),
    minNotional: BigInt(book.minNotional),
  });
  return {
    grid,
    base: book.baseTokenEvmAddress,
    quote: book.quoteTokenEvmAddress,
    baseDecimals: book.baseTokenDecimals,
    quoteDecimals: book.quoteTokenDecimals,
  };
}

/** The build request of a limit order on the benchmark book: a sell spends base for quote, a buy the reverse. */
export function limitRequest(market: Market, sell: boolean, ticks: number, steps: number) {
  const baseAmount = market.grid.baseAmount(steps).toString();
  const quoteAmount = market.grid.quoteAmount(BigInt(ticks), steps, sell ? 'up' : 'down').toString();
  return {
    orderbookId: BENCH_BOOK.id,
    type: 'LIMIT' as const,
    inputToken: sell ? market.base : market.quote,
    inputAmount: sell ? baseAmount : quoteAmount,
    outputToken: sell ? market.quote : market.base,
    outputAmount: sell ? quoteAmount : baseAmount,
  };
}
