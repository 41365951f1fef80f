import type { Eip712Domain } from '@dex/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AccessTokens } from './auth/access-tokens.js';
import type { FundsReader } from './chain/funds-reader.js';
import type { Config } from './config.js';
import type { EngineHost } from './engine/engine-host.js';
import { publicCaller } from './http/access.js';
import { createBaseApp } from './http/base-app.js';
import type { FeeSchedule } from './modules/account/fee-schedule.js';
import { accountRoutes } from './modules/account/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import type { AccountDirectory } from './modules/auth/trading-identity.js';
import type { WalletLogin } from './modules/auth/wallet-login.js';
import { dataApi } from './modules/data-api/data-api.js';
import { healthRoutes } from './modules/health/routes.js';
import { MarketDataService } from './modules/market-data/market-data-service.js';
import { marketDataRoutes } from './modules/market-data/routes.js';
import type { DeskEvents } from './modules/orders/desk-events.js';
import type { OrderBuilder } from './modules/orders/order-builder.js';
import type { OrderIntake } from './modules/orders/order-intake.js';
import type { OrderQueries } from './modules/orders/order-queries.js';
import { orderRoutes } from './modules/orders/routes.js';
import type { TradingDesk } from './modules/orders/trading-desk.js';
import { signatureRoutes } from './modules/signature/routes.js';
import type { MarketRegistry } from './registry/market-registry.js';
import type { Store } from './store/ports.js';
import type { Clock } from './util/clock.js';
import { installStreams } from './ws/gateway.js';

/** Everything the HTTP app needs, built by main (or by a test) and handed in. */
export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly registry: MarketRegistry;
  readonly engines: EngineHost;
  readonly tokens: AccessTokens;
  readonly clock: Clock;
  readonly logger: FastifyBaseLogger;
  /** The reactor's EIP-712 domain on this network. */
  readonly domain: Eip712Domain;
  readonly desk: TradingDesk;
  /** What the desk stored, published after each commit (the WebSocket streams follow it). */
  readonly deskEvents: DeskEvents;
  readonly directory: AccountDirectory;
  readonly fees: FeeSchedule;
  /** Balances and allowances on the settlement chain; null without one. */
  readonly funds: FundsReader | null;
  readonly login: WalletLogin;
  readonly builder: OrderBuilder;
  readonly intake: OrderIntake;
  readonly queries: OrderQueries;
}

/**
 * Builds the order book API (with the data API under its prefix, unless that has a port of its
 * own) without listening: main calls `listen`, tests call `inject`. The WebSocket streams answer
 * upgrades on the same HTTP server once it listens.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, registry, engines, tokens, clock } = deps;
  const app = await createBaseApp(config, deps.logger, {
    title: 'Order book API',
    description: `Public market data, wallet login and signed orders of the exchange${
      config.dataApi.port === null ? ', and the key-authenticated data API' : ''
    }. Raw token amounts are integer strings.`,
    notFound: true,
  });

  const caller = publicCaller(config.openMarketData, tokens);
  const marketData = new MarketDataService(registry, engines, store, clock, config);

  await app.register(healthRoutes, { network: config.network, store, clock, books: () => registry.list().length });
  await app.register(marketDataRoutes, { service: marketData, caller, openMarketData: config.openMarketData });
  await app.register(signatureRoutes, { caller, domain: deps.domain });
  await app.register(authRoutes, { login: deps.login });
  await app.register(accountRoutes, { tokens, registry, fees: deps.fees, directory: deps.directory, funds: deps.funds });
  await app.register(orderRoutes, {
    tokens,
    directory: deps.directory,
    builder: deps.builder,
    intake: deps.intake,
    desk: deps.desk,
    queries: deps.queries,
    clock,
    rateLimit: config.orderRateLimit ?? { perIp: null, perAccount: null },
  });
  if (config.dataApi.port === null) await app.register(dataApi, { ...deps, prefix: config.dataApi.prefix });
  installStreams(app, {
    limits: config.streams,
    trustProxy: config.trustProxy,
    tokens,
    registry,
    deskEvents: deps.deskEvents,
    logger: deps.logger,
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
  await app.register(dataApi, { ...deps, prefix: deps.config.dataApi.prefix });
  return app;
}
