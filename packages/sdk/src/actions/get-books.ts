import { type Client, type RequestErrorType, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { BooksPage } from '../types.js';
import { countParameter } from '../utils/parameters.js';
import { readBooksPage } from '../wire-compat.js';

export interface GetBooksParameters {
  /** 1-based page; the server's default is 1. */
  readonly page?: number | undefined;
  /** Books per page; the server's default is 100 and it caps larger values at 500. */
  readonly limit?: number | undefined;
}

export type GetBooksReturnType = BooksPage;

export type GetBooksErrorType = InvalidParameterError | RequestErrorType;

/**
 * Lists the order books with their grid, fees and 24-hour figures (`GET /books`).
 *
 * @example
 * const { orderbooks } = await getBooks(client);
 */
export async function getBooks(client: Client, parameters: GetBooksParameters = {}): Promise<GetBooksReturnType> {
  const page = await request<GetBooksReturnType>(client, {
    path: ['books'],
    query: { page: countParameter(parameters.page, 'page'), limit: countParameter(parameters.limit, 'limit') },
  });
  return readBooksPage(page);
}
