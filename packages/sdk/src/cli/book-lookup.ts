import { getBooks } from '../actions/get-books.js';
import { toDisplay } from '../amounts.js';
import type { Client } from '../client.js';
import type { OrderbookItem } from '../types.js';
import { UsageError } from './arguments.js';
import { CommandError } from './command.js';
import { pairOf } from './output.js';

/** The most books `GET /books` gives in one page. */
const PAGE = 500;

/** A book's item from `GET /books` (there is no route for one book): its tokens, decimals and grid. */
export async function findBook(client: Client, orderbookId: number): Promise<OrderbookItem> {
  for (let page = 1; ; page++) {
    const { orderbooks, total, limit } = await getBooks(client, { page, limit: PAGE });
    const book = orderbooks.find((candidate) => candidate.id === orderbookId);
    if (book !== undefined) return book;
    if (orderbooks.length === 0 || page * limit >= total) throw new CommandError(`There is no order book ${orderbookId}`);
  }
}

/** One token of a book, as the CLI shows its amounts. */
export interface BookToken {
  readonly symbol: string;
  readonly decimals: number;
  readonly address: string;
}

/** The base and quote tokens of a book; a book that does not say its decimals cannot be traded from here. */
export function tokensOf(book: OrderbookItem): { base: BookToken; quote: BookToken } {
  const { baseTokenDecimals, quoteTokenDecimals } = book;
  if (baseTokenDecimals === null || quoteTokenDecimals === null) {
    throw new CommandError(`Order book ${book.id} does not say its token decimals`);
  }
  return {
    base: { symbol: book.baseTokenSymbol ?? book.baseTokenId, decimals: baseTokenDecimals, address: book.baseTokenEvmAddress },
    quote: {
      symbol: book.quoteTokenSymbol ?? book.quoteTokenId,
      decimals: quoteTokenDecimals,
      address: book.quoteTokenEvmAddress,
    },
  };
}

/** Raw units of a token as `1.5 WHBAR`. */
export function tokenAmount(raw: string | bigint, token: BookToken): string {
  return `${toDisplay(raw, token.decimals)} ${token.symbol}`;
}

/**
 * `--amm` as the pool opt-in of an order or a quote on `book`: refused on a book that routes into
 * no pool (`isAMMEnabled: 0`), where the server would ignore it and trade the book alone.
 */
export function poolOptIn(book: OrderbookItem, amm: boolean | undefined): boolean {
  if (amm !== true) return false;
  if (book.isAMMEnabled !== 1) {
    throw new UsageError(`--amm: book ${book.id} (${pairOf(book)}) has no pool to route into (isAMMEnabled 0); leave out --amm`);
  }
  return true;
}
