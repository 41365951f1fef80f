import type { FastifyInstance } from 'fastify';
import type { ApiKeyGate } from '../../../application/api-keys/api-key-gate.js';
import type { DataApiConfig } from '../../../application/data-api/data-api-config.js';
import type { PlatformStats } from '../../../application/data-api/platform-stats.js';
import type { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import type { PoolHistory } from '../../../application/data-api/pool-history.js';
import type { PriceHistory } from '../../../application/data-api/price-history.js';
import type { TokenCatalogue } from '../../../application/data-api/token-catalogue.js';
import type { TokenPvlHistory } from '../../../application/data-api/token-pvl.js';
import type { TokenStatsBoard } from '../../../application/data-api/token-stats.js';
import type { Metrics } from '../../../ports/metrics.js';
import { answerNotFound } from '../error-handler.js';
import { apiKeyHook } from './api-key-gate.js';
import { poolHistoryRoutes } from './pool-history-routes.js';
import { poolRoutes } from './pool-routes.js';
import { statsRoutes } from './stats-routes.js';
import { tokenIconRoutes } from './token-icon-route.js';
import { tokenRoutes } from './token-routes.js';
import { v2Routes } from './v2-routes.js';

/** What the data API's routes answer from, built by composition (composition/data-api-services.ts). */
export interface DataApiServices {
  /** The API-key and quota gate; null where keys are not required (DATA_API_REQUIRE_KEYS). */
  readonly gate: ApiKeyGate | null;
  readonly catalogue: TokenCatalogue;
  readonly tokenStats: TokenStatsBoard;
  readonly priceHistory: PriceHistory;
  readonly pvl: TokenPvlHistory;
  readonly pools: PoolDirectory;
  readonly poolHistory: PoolHistory;
  readonly platformStats: PlatformStats;
}

export interface DataApiDeps {
  readonly config: { readonly dataApi: Pick<DataApiConfig, 'prefix' | 'port' | 'requireKeys'> };
  readonly metrics: Metrics;
  readonly services: DataApiServices;
}

/**
 * The key-authenticated data API (the legacy interface): tokens, pools, farms and stats, every
 * route behind the API-key and quota gate but the default token icon. Register it with the
 * configured prefix; everything it adds stays inside its own encapsulation context, so the gate
 * never touches the order book API.
 */
export async function dataApi(app: FastifyInstance, deps: DataApiDeps): Promise<void> {
  const { config, metrics, services } = deps;
  // With a prefix or a port of its own the data API has its own root; at the order book API's root it shares that one's.
  const ownRoot = config.dataApi.prefix !== '' || config.dataApi.port !== null;
  if (ownRoot) await app.register(tokenIconRoutes);
  // Listed one by one: the options this plugin was given carry its prefix, which must not apply twice.
  // Counted by route pattern, never by path: a path can carry an account or a token id.
  app.addHook('onResponse', async (request, reply) => {
    metrics.dataApiRequest(request.routeOptions.url ?? 'unmatched', reply.statusCode);
  });
  await app.register(keyedRoutes, { config, metrics, services, ownRoot });
}

/** Everything behind the key gate, in a context of its own so that the icon stays outside it. */
async function keyedRoutes(app: FastifyInstance, deps: DataApiDeps & { readonly ownRoot: boolean }): Promise<void> {
  const { services } = deps;
  if (services.gate !== null) app.addHook('onRequest', apiKeyHook(services.gate));
  const docs = { requireKeys: deps.config.dataApi.requireKeys };
  const { catalogue, priceHistory: history, pvl, pools } = services;
  await app.register(tokenRoutes, { catalogue, stats: services.tokenStats, history, pvl, pools, docs });
  await app.register(poolRoutes, { pools, docs });
  await app.register(poolHistoryRoutes, { pools, history: services.poolHistory, docs });
  await app.register(v2Routes, { docs });
  await app.register(statsRoutes, { stats: services.platformStats, docs });
  // Unknown paths under the data API pass the gate too, so they carry the quota headers and count.
  if (deps.ownRoot) app.setNotFoundHandler(answerNotFound);
}
