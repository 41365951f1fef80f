import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { ExactInputQuote } from '../types.js';
import {
  flagParameter,
  type OrderbookId,
  orderbookIdParameter,
  type RawAmount,
  rawAmountParameter,
} from '../utils/parameters.js';

export interface GetExactInputQuoteParameters {
  readonly orderbookId: OrderbookId;
  /** EVM address of the token spent: the book's base or quote token. */
  readonly inputToken: string;
  /** Raw units to spend, at least 1: a bigint or a strict decimal integer string. */
  readonly inputAmount: RawAmount;
  /**
   * On a book with `isAMMEnabled: 1`: `true` includes the book's pool, as an order that opts in to
   * it (`isAMMEnabled: true` in its request) trades; `false` quotes the book alone, as an order
   * without the opt-in trades. Sent only when given; absent, the server decides (current servers
   * quote the book alone, those of the first routing release included the pool).
   */
  readonly isAMMEnabled?: boolean | undefined;
}

export type GetExactInputQuoteReturnType = ExactInputQuote;

/**
 * A malformed amount is an InvalidParameterError, thrown before anything is sent. Unknown book,
 * foreign token or missing value: ApiError 400.
 */
export type GetExactInputQuoteErrorType = InvalidParameterError | RequestErrorType;

/**
 * Simulates a market order spending exactly `inputAmount` against the current book
 * (`GET /books/:orderbookId/quote/exact-input`), and its pool on a book with `isAMMEnabled: 1`
 * with `isAMMEnabled: true`. Submit `snappedInputAmount` as the order's input and
 * `suggestedOutputAmount` as its output; quote as the order will trade: with the pool for an order
 * that opts in to it (`isAMMEnabled: true` in its request), without it for one that does not.
 *
 * @example
 * const quote = await getExactInputQuote(client, {
 *   orderbookId: book.id,
 *   inputToken: book.baseTokenEvmAddress,
 *   inputAmount: 150_000_000n,
 *   isAMMEnabled: false, // the book alone, as a plain order trades
 * });
 */
export async function getExactInputQuote(
  client: Client,
  parameters: GetExactInputQuoteParameters,
): Promise<GetExactInputQuoteReturnType> {
  const orderbookId = orderbookIdParameter(parameters.orderbookId);
  const inputAmount = rawAmountParameter(parameters.inputAmount, 'inputAmount');
  return request<GetExactInputQuoteReturnType>(client, {
    path: ['books', orderbookId, 'quote', 'exact-input'],
    query: {
      inputToken: parameters.inputToken,
      inputAmount,
      isAMMEnabled: flagParameter(parameters.isAMMEnabled, 'isAMMEnabled'),
    },
  });
}
