import {
  type GetExactInputQuoteParameters,
  type GetExactOutputQuoteParameters,
  InvalidParameterError,
  type OrderbookItem,
  toRaw,
} from '@dex/sdk';
import { baseName, quoteName } from '../markets/book-label.js';

/** Exact input: the amount is what is spent. Exact output: the amount is what is received. */
export type QuoteMode = 'exact-input' | 'exact-output';
/** What the taker does with the base token. */
export type QuoteSide = 'buy' | 'sell';
export type TokenRole = 'base' | 'quote';

export type QuoteBook = Pick<
  OrderbookItem,
  | 'id'
  | 'baseTokenEvmAddress'
  | 'quoteTokenEvmAddress'
  | 'baseTokenDecimals'
  | 'quoteTokenDecimals'
  | 'baseTokenSymbol'
  | 'quoteTokenSymbol'
  | 'baseTokenId'
  | 'quoteTokenId'
  | 'isAMMEnabled'
  | 'tickStep'
>;

export interface QuoteInput {
  readonly mode: QuoteMode;
  readonly side: QuoteSide;
  /** As typed: a display amount of the token when its decimals are known, raw units otherwise. */
  readonly amount: string;
  /** Include the book's pool; only sent for a book that has one. */
  readonly includePool: boolean;
}

export type QuoteRequest =
  | { readonly mode: 'exact-input'; readonly parameters: GetExactInputQuoteParameters }
  | { readonly mode: 'exact-output'; readonly parameters: GetExactOutputQuoteParameters };

/** A sell spends base and receives quote; a buy is the mirror image. */
export function spentToken(side: QuoteSide): TokenRole {
  return side === 'sell' ? 'base' : 'quote';
}

export function receivedToken(side: QuoteSide): TokenRole {
  return side === 'sell' ? 'quote' : 'base';
}

/** The token the typed amount counts. */
export function amountToken(input: Pick<QuoteInput, 'mode' | 'side'>): TokenRole {
  return input.mode === 'exact-input' ? spentToken(input.side) : receivedToken(input.side);
}

export function tokenDecimals(book: Pick<QuoteBook, 'baseTokenDecimals' | 'quoteTokenDecimals'>, role: TokenRole) {
  return role === 'base' ? book.baseTokenDecimals : book.quoteTokenDecimals;
}

export function tokenName(book: QuoteBook, role: TokenRole): string {
  return role === 'base' ? baseName(book) : quoteName(book);
}

function tokenAddress(book: QuoteBook, role: TokenRole): string {
  return role === 'base' ? book.baseTokenEvmAddress : book.quoteTokenEvmAddress;
}

/**
 * The typed amount in raw units, through the SDK's own conversion. A malformed amount ("-1", "abc",
 * too many decimals) is the SDK's InvalidParameterError, renamed to the form's field; an amount
 * typed in raw units goes to the SDK as typed, and the SDK judges it.
 */
function rawAmount(text: string, token: string, decimals: number | null): string {
  if (decimals === null) return text;
  try {
    return toRaw(text, decimals).toString();
  } catch (error) {
    if (!(error instanceof InvalidParameterError)) throw error;
    const rule = `a plain decimal such as 1.5, with at most ${decimals} decimals`;
    throw new InvalidParameterError('amount', `"${text}" is not an amount of ${token}: use ${rule}`, { cause: error });
  }
}

/** The SDK parameters of the quote the form asks for. */
export function quoteRequest(book: QuoteBook, input: QuoteInput): QuoteRequest {
  const role = amountToken(input);
  const amount = rawAmount(input.amount.trim(), tokenName(book, role), tokenDecimals(book, role));
  const pool = book.isAMMEnabled === 1 ? { isAMMEnabled: input.includePool } : {};
  const token = tokenAddress(book, role);
  return input.mode === 'exact-input'
    ? { mode: input.mode, parameters: { orderbookId: book.id, inputToken: token, inputAmount: amount, ...pool } }
    : { mode: input.mode, parameters: { orderbookId: book.id, outputToken: token, outputAmount: amount, ...pool } };
}
