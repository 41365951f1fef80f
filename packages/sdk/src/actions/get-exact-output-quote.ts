import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { ExactOutputQuote } from '../types.js';
import {
  flagParameter,
  type OrderbookId,
  orderbookIdParameter,
  type RawAmount,
  rawAmountParameter,
} from '../utils/parameters.js';

export interface GetExactOutputQuoteParameters {
  readonly orderbookId: OrderbookId;
  /** EVM address of the token received: the book's base or quote token. */
  readonly outputToken: string;
  /** Raw units to receive, at least 1: a bigint or a strict decimal integer string. */
  readonly outputAmount: RawAmount;
  /**
   * On a book with `isAMMEnabled: 1`: `true` includes the book's pool, as an order that opts in to
   * it (`isAMMEnabled: true` in its request) trades; `false` quotes the book alone, as an order
   * without the opt-in trades. Sent only when given; absent, the server decides (current servers
   * quote the book alone, those of the first routing release included the pool).
   */
  readonly isAMMEnabled?: boolean | undefined;
}

export type GetExactOutputQuoteReturnType = ExactOutputQuote;

/**
 * A malformed amount is an InvalidParameterError, thrown before anything is sent. Unknown book,
 * foreign token or missing value: ApiError 400.
 */
export type GetExactOutputQuoteErrorType = InvalidParameterError | RequestErrorType;

/**
 * Simulates a market order receiving exactly `outputAmount` against the current book
 * (`GET /books/:orderbookId/quote/exact-output`), and its pool on a book with `isAMMEnabled: 1`
 * with `isAMMEnabled: true`. `suggestedInputAmount` is the safe input to submit; quote as the
 * order will trade (with the pool only for an order that opts in to it).
 *
 * @example
 * const quote = await getExactOutputQuote(client, {
 *   orderbookId: book.id,
 *   outputToken: book.baseTokenEvmAddress,
 *   outputAmount: '150000000',
 *   isAMMEnabled: true, // book and pool, as an order that opts in trades
 * });
 */
export async function getExactOutputQuote(
  client: Client,
  parameters: GetExactOutputQuoteParameters,
): Promise<GetExactOutputQuoteReturnType> {
  const orderbookId = orderbookIdParameter(parameters.orderbookId);
  const outputAmount = rawAmountParameter(parameters.outputAmount, 'outputAmount');
  return request<GetExactOutputQuoteReturnType>(client, {
    path: ['books', orderbookId, 'quote', 'exact-output'],
    query: {
      outputToken: parameters.outputToken,
      outputAmount,
      isAMMEnabled: flagParameter(parameters.isAMMEnabled, 'isAMMEnabled'),
    },
  });
}
