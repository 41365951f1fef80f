import { HealthResponse } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../ports/clock.js';
import type { Store } from '../../../ports/store/ports.js';
import { errorResponses } from '../schemas.js';

export interface HealthRoutesOptions {
  readonly network: string;
  readonly store: Store;
  readonly clock: Clock;
  readonly books: () => number;
}

/** `GET /health`: 200 when the store answers; for load balancers and operators, never behind auth. */
export async function healthRoutes(fastify: FastifyInstance, options: HealthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const startedAt = options.clock.now();
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and store check',
        response: { 200: HealthResponse, ...errorResponses(500) },
      },
    },
    async () => {
      await options.store.ping();
      const time = options.clock.now();
      return {
        status: 'ok' as const,
        network: options.network,
        time,
        uptimeSeconds: Math.floor((time - startedAt) / 1000),
        books: options.books(),
      };
    },
  );
}
