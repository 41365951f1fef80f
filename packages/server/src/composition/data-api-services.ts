import type { FastifyBaseLogger } from 'fastify';
import { ApiKeyGate } from '../application/api-keys/api-key-gate.js';
import { QuotaMeter } from '../application/api-keys/quota-meter.js';
import type { DataApiConfig } from '../application/data-api/data-api-config.js';
import { HistoryBuckets } from '../application/data-api/history-buckets.js';
import { ListedPools } from '../application/data-api/listed-pools.js';
import { MarketPrices } from '../application/data-api/market-prices.js';
import { PlatformStats } from '../application/data-api/platform-stats.js';
import { PoolDirectory } from '../application/data-api/pool-directory.js';
import { PoolHistory } from '../application/data-api/pool-history.js';
import { PriceHistory } from '../application/data-api/price-history.js';
import { stakerNames } from '../application/data-api/staker-names.js';
import { TokenCatalogue } from '../application/data-api/token-catalogue.js';
import { TokenPvlHistory } from '../application/data-api/token-pvl.js';
import { TokenStatsBoard } from '../application/data-api/token-stats.js';
import type { MarketRegistry } from '../application/markets/market-registry.js';
import type { Network } from '../domain/network.js';
import type { DataApiServices } from '../edges/http/data-api/data-api.js';
import type { Clock } from '../ports/clock.js';
import type { Metrics } from '../ports/metrics.js';
import type { QuotaCounters } from '../ports/quota-counters.js';
import type { Store } from '../ports/store/ports.js';

export interface DataApiServiceDeps {
  readonly config: { readonly network: Network; readonly dataApi: DataApiConfig };
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  readonly metrics: Metrics;
  readonly quotaCounters: QuotaCounters;
}

/** The API-key gate, where keys are required: its quota meter counts on `quotaCounters` and stores the counts. */
function gateOf(deps: DataApiServiceDeps): ApiKeyGate | null {
  const { config, store, clock } = deps;
  if (!config.dataApi.requireKeys) return null;
  const meter = new QuotaMeter(store.apiKeys, clock, deps.logger, deps.quotaCounters);
  return new ApiKeyGate(store.apiKeys, meter, config.network, clock, deps.metrics);
}

/**
 * The services behind one data API: its prices, histories, pools and stats over the store and the
 * registry, and its key gate. Each data API gets its own (their caches are its own).
 */
export function dataApiServices(deps: DataApiServiceDeps): DataApiServices {
  const { config, store, registry, clock } = deps;
  const { cacheMs, protocolTokenId } = config.dataApi;
  const tokens = () => registry.tokens();
  const listed = new ListedPools(store.pools, tokens);
  const prices = new MarketPrices(registry, store.candles, store.poolCandles, listed, config.dataApi, clock, cacheMs);
  const cut = new HistoryBuckets(store.candles, store.poolCandles, prices, clock);
  const priceHistory = new PriceHistory(store.candles, prices, clock, cut);
  const protocolToken = () => (protocolTokenId === null ? undefined : prices.token(protocolTokenId));
  const pools = new PoolDirectory(store.farms, tokens, prices, protocolToken, stakerNames(store.accountKeys));
  const poolHistory = new PoolHistory(cut, store.poolCandles, prices, tokens, clock);
  return {
    gate: gateOf(deps),
    catalogue: new TokenCatalogue(tokens, prices, clock),
    tokenStats: new TokenStatsBoard(tokens, prices, pools, clock),
    priceHistory,
    pvl: new TokenPvlHistory(priceHistory, prices, pools, clock),
    pools,
    poolHistory,
    platformStats: new PlatformStats(priceHistory, pools, poolHistory, store.staking, prices, protocolToken, clock, cacheMs),
  };
}
