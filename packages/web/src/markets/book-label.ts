import type { OrderbookItem } from '@dex/sdk';

type BookNames = Pick<OrderbookItem, 'baseTokenSymbol' | 'quoteTokenSymbol' | 'baseTokenId' | 'quoteTokenId'>;

/** The base token's symbol, or its ledger id when the API does not know the symbol. */
export function baseName(book: BookNames): string {
  return book.baseTokenSymbol ?? book.baseTokenId;
}

export function quoteName(book: BookNames): string {
  return book.quoteTokenSymbol ?? book.quoteTokenId;
}

/** "WHBAR/USDC", or ledger ids for tokens without a symbol. */
export function pairLabel(book: BookNames): string {
  return `${baseName(book)}/${quoteName(book)}`;
}

export type BookStateKind = 'open' | 'closed' | 'halted' | 'amm';

export interface BookState {
  readonly kind: BookStateKind;
  readonly label: string;
  readonly description: string;
}

/** The badges of a book: open or closed, halted, and whether it has a pool. */
export function bookStates(book: Pick<OrderbookItem, 'status' | 'isMarketHalted' | 'isAMMEnabled'>): BookState[] {
  const states: BookState[] = [
    book.status === 'OPEN'
      ? { kind: 'open', label: 'Open', description: 'The book takes orders' }
      : { kind: 'closed', label: 'Closed', description: 'The book is closed' },
  ];
  if (book.isMarketHalted === 1) states.push({ kind: 'halted', label: 'Halted', description: 'Trading is halted' });
  if (book.isAMMEnabled === 1) states.push({ kind: 'amm', label: 'AMM', description: 'Orders may also trade with a pool' });
  return states;
}
