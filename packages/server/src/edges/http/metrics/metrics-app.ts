import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { MetricsExposition } from '../../../ports/metrics.js';

/**
 * The metrics listener (METRICS_PORT): `GET /metrics` in the Prometheus text format and nothing
 * else, on a port of its own so that the figures never reach the public API. Scrapes are not
 * logged (one every few seconds would drown the log). It never listens by itself.
 */
export async function buildMetricsApp(exposition: MetricsExposition, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  const app = Fastify({ loggerInstance: logger });
  app.get('/metrics', { logLevel: 'silent' }, async (_request, reply) => {
    const text = await exposition.text();
    return reply.type(exposition.contentType).send(text);
  });
  await app.ready();
  return app;
}
