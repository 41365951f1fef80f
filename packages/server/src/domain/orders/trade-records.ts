/** Trades of the books, as the desk records them and the tape shows them. */

export type TakerDirection = 'buy' | 'sell';

export interface NewTrade {
  readonly bookId: number;
  readonly executedAt: number;
  readonly priceTicks: bigint;
  /** Display price, quote per base. */
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly direction: TakerDirection;
  /** Null when the taker swapped with the book's pool. */
  readonly makerOrderId: number | null;
  readonly takerOrderId: number;
}

export interface TradeRecord extends NewTrade {
  readonly id: number;
  /** Settlement transaction, known once the trade settles on-chain. */
  readonly transactionHash: string | null;
}
