import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { apiKeyAuth } from '../../http/api-key-auth.js';
import { answerNotFound } from '../../http/error-handler.js';
import type { MarketRegistry } from '../../registry/market-registry.js';
import type { Store } from '../../store/ports.js';
import type { Clock } from '../../util/clock.js';
import { MarketPrices } from './market-prices.js';
import { PlatformStats } from './platform-stats.js';
import { PoolDirectory } from './pool-directory.js';
import { poolRoutes } from './pool-routes.js';
import { PriceHistory } from './price-history.js';
import { QuotaMeter } from './quota-meter.js';
import { statsRoutes } from './stats-routes.js';
import { TokenCatalogue } from './token-catalogue.js';
import { tokenRoutes } from './token-routes.js';

export interface DataApiDeps {
  readonly config: Config;
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
}

/**
 * The key-authenticated data API (the legacy interface): tokens, pools, farms and stats, every
 * route behind the API-key and quota gate. Register it with the configured prefix; everything it
 * adds stays inside its own encapsulation context, so the gate never touches the order book API.
 */
export async function dataApi(app: FastifyInstance, deps: DataApiDeps): Promise<void> {
  const { config, store, registry, clock } = deps;
  const { requireKeys, cacheMs, protocolTokenId } = config.dataApi;
  if (requireKeys) {
    const meter = new QuotaMeter(store.apiKeys, clock, deps.logger);
    app.addHook('onRequest', apiKeyAuth({ keys: store.apiKeys, meter, network: config.network, clock }));
  }
  const tokens = () => registry.tokens();
  const prices = new MarketPrices(registry, store.candles, config.dataApi, clock, cacheMs);
  const history = new PriceHistory(store.candles, prices, clock);
  const pools = new PoolDirectory(store.pools, store.farms, tokens, prices);
  const protocolToken = () => (protocolTokenId === null ? undefined : prices.token(protocolTokenId));
  const docs = { requireKeys };

  await app.register(tokenRoutes, { catalogue: new TokenCatalogue(tokens, prices, clock), history, docs });
  await app.register(poolRoutes, { pools, docs });
  await app.register(statsRoutes, { stats: new PlatformStats(history, pools, prices, protocolToken, clock, cacheMs), docs });
  // Unknown paths under the data API pass the gate too, so they carry the quota headers and count.
  if (config.dataApi.prefix !== '' || config.dataApi.port !== null) {
    app.setNotFoundHandler(answerNotFound);
  }
}
