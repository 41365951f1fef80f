import { HealthResponse, ReadyResponse } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../domain/errors.js';
import type { Clock } from '../../../ports/clock.js';
import type { Dependency } from '../../../ports/dependency.js';
import { errorResponses } from '../schemas.js';
import { unanswered } from './unanswered.js';

/** How long `/ready` waits for each dependency: a load balancer's probe must not hang. */
const READY_TIMEOUT_MS = 2_000;

export interface HealthRoutesOptions {
  readonly network: string;
  /**
   * The store when it lives in the process (the SQLite file): a process whose store fails is not
   * alive. A store on a server (PostgreSQL) is a dependency like the chain: `/ready` asks it.
   */
  readonly ownStore: { ping(): Promise<void> } | null;
  readonly clock: Clock;
  readonly books: () => number;
  /** What `/ready` asks: the store, and the chain node when fills settle on one. */
  readonly dependencies: readonly Dependency[];
}

/**
 * `GET /health`: liveness, 200 while the process and its own store answer. `GET /ready`: readiness,
 * 503 until every dependency answers. Both are for load balancers and operators, never behind auth.
 */
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
      await options.ownStore?.ping();
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
  app.get(
    '/ready',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the store and the chain node answer',
        response: { 200: ReadyResponse, ...errorResponses(503) },
      },
    },
    async () => {
      const silent = await unanswered(options.dependencies, READY_TIMEOUT_MS);
      if (silent.length > 0)
        throw new AppError('NOT_READY', `Not ready: ${silent.join(' and ')} did not answer within ${READY_TIMEOUT_MS / 1000} s`);
      return { status: 'ready' as const, dependencies: options.dependencies.map((dependency) => dependency.name) };
    },
  );
}
