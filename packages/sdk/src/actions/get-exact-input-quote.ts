import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { ExactInputQuote } from '../types.js';
import { type OrderbookId, orderbookIdParameter, type RawAmount, rawAmountParameter } from '../utils/parameters.js';

export interface GetExactInputQuoteParameters {
  readonly orderbookId: OrderbookId;
  /** EVM address of the token spent: the book's base or quote token. */
  readonly inputToken: string;
  /** Raw units to spend, at least 1: a bigint or a strict decimal integer string. */
  readonly inputAmount: RawAmount;
}

export type GetExactInputQuoteReturnType = ExactInputQuote;

/**
 * A malformed amount is an InvalidParameterError, thrown before anything is sent. Unknown book,
 * foreign token or missing value: ApiError 400.
 */
export type GetExactInputQuoteErrorType = InvalidParameterError | RequestErrorType;

/**
 * Simulates a market order spending exactly `inputAmount` against the current book
 * (`GET /books/:orderbookId/quote/exact-input`). Submit `snappedInputAmount` as the order's input
 * and `suggestedOutputAmount` as its output.
 *
 * @example
 * const quote = await getExactInputQuote(client, {
 *   orderbookId: book.id,
 *   inputToken: book.baseTokenEvmAddress,
 *   inputAmount: 150_000_000n,
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
    query: { inputToken: parameters.inputToken, inputAmount },
  });
}
