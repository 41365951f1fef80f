import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { DataApiConfig } from '../../../application/data-api/data-api-config.js';
import { HistoryBuckets } from '../../../application/data-api/history-buckets.js';
import { ListedPools } from '../../../application/data-api/listed-pools.js';
import { MarketPrices } from '../../../application/data-api/market-prices.js';
import { PlatformStats } from '../../../application/data-api/platform-stats.js';
import { PoolDirectory } from '../../../application/data-api/pool-directory.js';
import { PoolHistory } from '../../../application/data-api/pool-history.js';
import { PriceHistory } from '../../../application/data-api/price-history.js';
import { QuotaMeter } from '../../../application/data-api/quota-meter.js';
import { stakerNames } from '../../../application/data-api/staker-names.js';
import { TokenCatalogue } from '../../../application/data-api/token-catalogue.js';
import { TokenPvlHistory } from '../../../application/data-api/token-pvl.js';
import { TokenStatsBoard } from '../../../application/data-api/token-stats.js';
import type { MarketRegistry } from '../../../application/markets/market-registry.js';
import type { Network } from '../../../domain/network.js';
import type { Clock } from '../../../ports/clock.js';
import type { Metrics } from '../../../ports/metrics.js';
import type { QuotaCounters } from '../../../ports/quota-counters.js';
import type { Store } from '../../../ports/store/ports.js';
import { answerNotFound } from '../error-handler.js';
import { apiKeyAuth } from './api-key-gate.js';
import { poolHistoryRoutes } from './pool-history-routes.js';
import { poolRoutes } from './pool-routes.js';
import { statsRoutes } from './stats-routes.js';
import { tokenIconRoutes } from './token-icon-route.js';
import { tokenRoutes } from './token-routes.js';
import { v2Routes } from './v2-routes.js';

export interface DataApiDeps {
  readonly config: { readonly network: Network; readonly dataApi: DataApiConfig };
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly metrics: Metrics;
  readonly quotaCounters: QuotaCounters;
}

/**
 * The key-authenticated data API (the legacy interface): tokens, pools, farms and stats, every
 * route behind the API-key and quota gate but the default token icon. Register it with the
 * configured prefix; everything it adds stays inside its own encapsulation context, so the gate
 * never touches the order book API.
 */
export async function dataApi(app: FastifyInstance, deps: DataApiDeps): Promise<void> {
  const { config, store, registry, clock, logger, metrics } = deps;
  // With a prefix or a port of its own the data API has its own root; at the order book API's root it shares that one's.
  const ownRoot = config.dataApi.prefix !== '' || config.dataApi.port !== null;
  if (ownRoot) await app.register(tokenIconRoutes);
  // Listed one by one: the options this plugin was given carry its prefix, which must not apply twice.
  // Counted by route pattern, never by path: a path can carry an account or a token id.
  app.addHook('onResponse', async (request, reply) => {
    metrics.dataApiRequest(request.routeOptions.url ?? 'unmatched', reply.statusCode);
  });
  const { quotaCounters } = deps;
  await app.register(keyedRoutes, { config, store, registry, clock, logger, metrics, quotaCounters, ownRoot });
}

/** Everything behind the key gate, in a context of its own so that the icon stays outside it. */
async function keyedRoutes(app: FastifyInstance, deps: DataApiDeps & { readonly ownRoot: boolean }): Promise<void> {
  const { config, store, registry, clock, metrics } = deps;
  const { requireKeys, cacheMs, protocolTokenId } = config.dataApi;
  if (requireKeys) {
    const meter = new QuotaMeter(store.apiKeys, clock, deps.logger, deps.quotaCounters);
    app.addHook('onRequest', apiKeyAuth({ keys: store.apiKeys, meter, network: config.network, clock, metrics }));
  }
  const tokens = () => registry.tokens();
  const listed = new ListedPools(store.pools, tokens);
  const prices = new MarketPrices(registry, store.candles, store.poolCandles, listed, config.dataApi, clock, cacheMs);
  const cut = new HistoryBuckets(store.candles, store.poolCandles, prices, clock);
  const history = new PriceHistory(store.candles, prices, clock, cut);
  const protocolToken = () => (protocolTokenId === null ? undefined : prices.token(protocolTokenId));
  const pools = new PoolDirectory(store.farms, tokens, prices, protocolToken, stakerNames(store.accountKeys));
  const poolHistory = new PoolHistory(cut, store.poolCandles, prices, tokens, clock);
  const docs = { requireKeys };

  const catalogue = new TokenCatalogue(tokens, prices, clock);
  const board = new TokenStatsBoard(tokens, prices, pools, clock);
  const pvl = new TokenPvlHistory(history, prices, pools, clock);
  await app.register(tokenRoutes, { catalogue, stats: board, history, pvl, pools, docs });
  await app.register(poolRoutes, { pools, docs });
  await app.register(poolHistoryRoutes, { pools, history: poolHistory, docs });
  await app.register(v2Routes, { docs });
  const stats = new PlatformStats(history, pools, poolHistory, store.staking, prices, protocolToken, clock, cacheMs);
  await app.register(statsRoutes, { stats, docs });
  // Unknown paths under the data API pass the gate too, so they carry the quota headers and count.
  if (deps.ownRoot) app.setNotFoundHandler(answerNotFound);
}
