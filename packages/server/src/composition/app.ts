import type { Eip712Domain } from '@dex/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { StoredSettlementProofs } from '../adapters/chain/settlement/stored-settlement-proofs.js';
import type { FeeSchedule } from '../application/accounts/fee-schedule.js';
import type { AccessTokens } from '../application/auth/access-tokens.js';
import type { AccountDirectory } from '../application/auth/trading-identity.js';
import type { WalletLogin } from '../application/auth/wallet-login.js';
import type { DeskEvents } from '../application/desk/desk-events.js';
import type { OrderDesk } from '../application/desk/order-desk.js';
import type { BookViews } from '../application/market-data/book-views.js';
import { MarketDataService } from '../application/market-data/market-data-service.js';
import type { MarketRegistry } from '../application/markets/market-registry.js';
import type { CancelAfterSwitches } from '../application/orders/cancel-after.js';
import type { OrderBuilder } from '../application/orders/order-builder.js';
import type { OrderIntake } from '../application/orders/order-intake.js';
import type { OrderQueries } from '../application/orders/order-queries.js';
import { WebTerms } from '../application/web-terms/web-terms.js';
import { publicCaller } from '../edges/http/access.js';
import { accountRoutes } from '../edges/http/account/routes.js';
import { authRoutes } from '../edges/http/auth/routes.js';
import { createBaseApp } from '../edges/http/base-app.js';
import { dataApi } from '../edges/http/data-api/data-api.js';
import { tokenIconRoutes } from '../edges/http/data-api/token-icon-route.js';
import { healthRoutes } from '../edges/http/health/routes.js';
import { marketDataRoutes } from '../edges/http/market-data/routes.js';
import { orderRoutes } from '../edges/http/orders/routes.js';
import { signatureRoutes } from '../edges/http/signature/routes.js';
import { webPageRoutes } from '../edges/http/web-page/routes.js';
import { webTermsRoutes } from '../edges/http/web-page/terms-routes.js';
import { installStreams } from '../edges/ws/gateway.js';
import type { Clock } from '../ports/clock.js';
import type { Dependency } from '../ports/dependency.js';
import type { FundsReader } from '../ports/funds.js';
import type { Metrics } from '../ports/metrics.js';
import type { QuotaCounters } from '../ports/quota-counters.js';
import type { RateBuckets } from '../ports/rate-buckets.js';
import type { Store } from '../ports/store/ports.js';
import type { WebAssets } from '../ports/web-assets.js';
import { type Config, cancelsWaitForReactor } from './config.js';
import { dataApiServices } from './data-api-services.js';

/** Everything the HTTP app needs, built by main (or by a test) and handed in. */
export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly registry: MarketRegistry;
  /** The books market data reads: this process's engines, or a gateway's replicas. */
  readonly books: BookViews;
  /** Whether the books hold what the store holds (see the desk's inStepWithStore). */
  readonly booksInStep: () => boolean;
  readonly tokens: AccessTokens;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  /** The reactor's EIP-712 domain on this network. */
  readonly domain: Eip712Domain;
  /** The books' writer: the desk in this process, or the engines behind their command logs. */
  readonly desk: OrderDesk;
  /** The dead-man switches of POST /cancel/after. */
  readonly cancelAfter: CancelAfterSwitches;
  /** What the desk stored, published after each commit (the WebSocket streams follow it). */
  readonly deskEvents: DeskEvents;
  readonly directory: AccountDirectory;
  readonly fees: FeeSchedule;
  /** Balances and allowances on the settlement chain; null without one. */
  readonly funds: FundsReader | null;
  readonly login: WalletLogin;
  readonly builder: OrderBuilder;
  readonly intake: OrderIntake;
  /** What `/ready` asks before it says yes. */
  readonly dependencies: readonly Dependency[];
  readonly queries: OrderQueries;
  /** Where the service's figures are counted; they are served on METRICS_PORT only. */
  readonly metrics: Metrics;
  /** The data API's live request counts: this process's, or Redis's (REDIS_URL). */
  readonly quotaCounters: QuotaCounters;
  /** The order routes' token buckets (ORDER_RATE_LIMIT), this process's or Redis's; null: no limit. */
  readonly rateBuckets: RateBuckets | null;
  /** The login routes' token buckets per client address (AUTH_RATE_LIMIT); null: no limit. */
  readonly loginBuckets: RateBuckets | null;
  /** The built market web page served at `/`; null: none. */
  readonly webAssets: WebAssets | null;
}

/** The web page and, where the network asks for it (WEB_TERMS), its acceptance step; the page learns of both from its settings. */
async function registerWebPage(app: FastifyInstance, deps: AppDeps, assets: WebAssets): Promise<void> {
  const { config } = deps;
  const key = config.webDataApiKey;
  const settings = {
    ...(key === null ? {} : { dataApi: { path: config.dataApi.prefix, apiKey: key } }),
    ...(config.webTerms === null ? {} : { terms: true }),
  };
  await app.register(webPageRoutes, { assets, settings: Object.keys(settings).length === 0 ? null : settings });
  if (config.webTerms === null) return;
  const { texts, clientAddress } = config.webTerms;
  const terms = new WebTerms(texts, deps.store.termsAcceptances, deps.clock, clientAddress);
  await app.register(webTermsRoutes, { terms, tokens: deps.tokens });
}

/**
 * Builds the order book API (with the data API under its prefix, unless that has a port of its
 * own) without listening: main calls `listen`, tests call `inject`. The WebSocket streams answer
 * upgrades on the same HTTP server once it listens.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, registry, tokens, clock } = deps;
  const app = await createBaseApp(config, deps.logger, {
    title: 'Order book API',
    description: `Public market data, wallet login and signed orders of the exchange${
      config.dataApi.port === null ? ', and the key-authenticated data API' : ''
    }. Raw token amounts are integer strings.`,
    notFound: true,
  });

  const caller = publicCaller(config.openMarketData, tokens);
  const marketData = new MarketDataService(registry, deps.books, store, clock, config, deps.booksInStep);

  await app.register(tokenIconRoutes);
  if (deps.webAssets !== null) await registerWebPage(app, deps, deps.webAssets);
  await app.register(healthRoutes, {
    network: config.network,
    ownStore: config.databaseUrl === null ? store : null,
    clock,
    books: () => registry.list().length,
    dependencies: deps.dependencies,
  });
  await app.register(marketDataRoutes, {
    service: marketData,
    caller,
    openMarketData: config.openMarketData,
    settlements: new StoredSettlementProofs(store.settlementProofs, deps.domain.chainId, deps.domain.verifyingContract),
  });
  await app.register(signatureRoutes, { caller, domain: deps.domain });
  await app.register(authRoutes, { login: deps.login, rateBuckets: deps.loginBuckets });
  await app.register(accountRoutes, {
    tokens,
    registry,
    fees: deps.fees,
    directory: deps.directory,
    funds: deps.funds,
    reactor: deps.domain.verifyingContract,
  });
  await app.register(orderRoutes, {
    tokens,
    directory: deps.directory,
    builder: deps.builder,
    intake: deps.intake,
    desk: deps.desk,
    cancelAfter: deps.cancelAfter,
    queries: deps.queries,
    cancelsWaitForReactor: cancelsWaitForReactor(config),
    clock,
    rateBuckets: deps.rateBuckets,
  });
  if (config.dataApi.port === null) {
    await app.register(dataApi, { ...deps, services: dataApiServices(deps), prefix: config.dataApi.prefix });
  }
  installStreams(app, {
    limits: config.streams,
    trustProxy: config.trustProxy,
    tokens,
    registry,
    deskEvents: deps.deskEvents,
    desk: deps.desk,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  return app;
}

/** The data API alone, for its own port (DATA_API_PORT); it never listens by itself. */
export async function buildDataApiApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = await createBaseApp(deps.config, deps.logger, {
    title: 'Data API',
    description: 'Tokens, pools, farms and statistics of the exchange, behind API keys with monthly quotas.',
    notFound: false,
  });
  await app.register(dataApi, { ...deps, services: dataApiServices(deps), prefix: deps.config.dataApi.prefix });
  return app;
}
