/** The tokens and books of the exchange, as the registry holds them. */

/**
 * What the service needs from persistence. The embedded default implements it on SQLite; a
 * PostgreSQL adapter implements the same interface for the scale-out deployment. Methods are
 * async even where SQLite is synchronous so that both adapters fit.
 */

export interface TokenRecord {
  /** Ledger id, `0.0.X`. */
  readonly id: string;
  /** Lower-case 0x address. */
  readonly evmAddress: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  readonly icon: string | null;
  readonly description: string | null;
  readonly website: string | null;
  readonly dueDiligenceComplete: boolean;
  readonly isFeeOnTransfer: boolean;
  readonly sentinelReport: string | null;
  readonly twitterHandle: string | null;
  /** Raw units in circulation as the operator recorded them, or null when unknown. */
  readonly circulatingSupply: bigint | null;
  /** On the data API's curated lists `/tokens/known` and `/tokens/default`. */
  readonly isKnown: boolean;
  readonly isDefault: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type NewToken = Omit<TokenRecord, 'createdAt' | 'updatedAt'>;

/** The listing fields of a token the operator may change after it was added. */
export type TokenListingChange = Partial<
  Pick<
    TokenRecord,
    | 'icon'
    | 'description'
    | 'website'
    | 'dueDiligenceComplete'
    | 'isFeeOnTransfer'
    | 'sentinelReport'
    | 'twitterHandle'
    | 'circulatingSupply'
    | 'isKnown'
    | 'isDefault'
  >
>;

export type BookStatus = 'OPEN' | 'CLOSED';

export interface BookRecord {
  readonly id: number;
  readonly baseTokenId: string;
  readonly quoteTokenId: string;
  readonly status: BookStatus;
  readonly isAmmEnabled: boolean;
  readonly isHalted: boolean;
  readonly tickStep: string;
  readonly sizeStep: string;
  readonly lotSize: string;
  readonly minNotional: string;
  readonly takerFeePips: number;
  /** Negative: a rebate, paid out of the taker's fee. */
  readonly makerFeePips: number;
  /** The most of a fill's taker fee a maker rebate may take, in pips of that fee. */
  readonly capFractionPips: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Whether a book matches nothing: halted by the operator, or closed. */
export function matchesNothing(book: Pick<BookRecord, 'isHalted' | 'status'>): boolean {
  return book.isHalted || book.status === 'CLOSED';
}

export type NewBook = Omit<BookRecord, 'id' | 'createdAt' | 'updatedAt' | 'status' | 'isHalted'>;

/** Fee rates of one account on one book, replacing the book's own (see FeeSchedule). */
export interface FeeOverride {
  readonly account: string;
  readonly bookId: number;
  readonly takerFeePips: number;
  /** Negative: a rebate, paid out of the taker's fee. */
  readonly makerFeePips: number;
  readonly capFractionPips: number;
  readonly updatedAt: number;
}
