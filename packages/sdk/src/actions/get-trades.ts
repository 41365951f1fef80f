import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { RecentTrades } from '../types.js';
import { countParameter, type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';

export type TradeSort = 'asc' | 'desc';

export interface GetTradesParameters {
  readonly orderbookId: OrderbookId;
  /** Order by time; the server's default is `desc` (newest first). */
  readonly sort?: TradeSort | undefined;
  /** 1-based page; the server's default is 1. */
  readonly page?: number | undefined;
  /** Trades per page; the server's default is 10 and it caps larger values at 100. */
  readonly limit?: number | undefined;
}

export type GetTradesReturnType = RecentTrades;

/** An unknown book is an ApiError 404; a sort other than asc/desc is an ApiError 400 `INVALID_SORT`. */
export type GetTradesErrorType = InvalidParameterError | RequestErrorType;

/**
 * The market-wide trade tape of a book (`GET /trades/:orderbookId`). The server answers from a
 * short-lived cache, so poll moderately.
 *
 * @example
 * const { trades } = await getTrades(client, { orderbookId: 1, limit: 50 });
 */
export async function getTrades(client: Client, parameters: GetTradesParameters): Promise<GetTradesReturnType> {
  return request<GetTradesReturnType>(client, {
    path: ['trades', orderbookIdParameter(parameters.orderbookId)],
    query: {
      sort: parameters.sort,
      page: countParameter(parameters.page, 'page'),
      limit: countParameter(parameters.limit, 'limit'),
    },
  });
}
