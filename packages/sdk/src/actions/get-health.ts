import { type Client, type RequestErrorType, request } from '../client.js';
import type { Health } from '../types.js';

export type GetHealthReturnType = Health;

/** An unhealthy service is an ApiError with status 500. */
export type GetHealthErrorType = RequestErrorType;

/**
 * Liveness of the service and its store (`GET /health`); never needs a token.
 *
 * @example
 * const { status, network } = await getHealth(client);
 */
export async function getHealth(client: Client): Promise<GetHealthReturnType> {
  return request<GetHealthReturnType>(client, { path: ['health'] });
}
