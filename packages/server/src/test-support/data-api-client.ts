import type { FastifyInstance } from 'fastify';
import type { Config } from '../composition/config.js';
import type { Reply } from './trader.js';

/** Where data API requests go: a harness (read on every request, so a restart is followed). */
export interface DataApiHost {
  readonly dataApi: FastifyInstance;
  readonly config: Config;
}

/** The quota headers of a reply, as numbers; absent ones undefined. */
export function quotaHeaders(reply: Reply<unknown>) {
  const header = (name: string) => (reply.headers[name] === undefined ? undefined : Number(reply.headers[name]));
  return {
    limit: header('x-ratelimit-limit'),
    remaining: header('x-ratelimit-remaining'),
    additionalTotal: header('x-ratelimit-additional-total'),
    reset: header('x-ratelimit-reset'),
  };
}

/** GETs a data API path (without the prefix) through `inject`, with an API key when given. */
export async function dataGet<T = Record<string, unknown>>(host: DataApiHost, path: string, key?: string): Promise<Reply<T>> {
  const response = await host.dataApi.inject({
    method: 'GET',
    url: `${host.config.dataApi.prefix}${path}`,
    headers: key === undefined ? {} : { 'x-api-key': key },
  });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
}
