import { randomUUID } from 'node:crypto';
import type { Eip712Domain } from '@dex/core';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AccessTokens } from './auth/access-tokens.js';
import type { Config } from './config.js';
import type { EngineHost } from './engine/engine-host.js';
import { AppError } from './errors.js';
import { publicCaller } from './http/access.js';
import { installErrorHandling } from './http/error-handler.js';
import type { FeeSchedule } from './modules/account/fee-schedule.js';
import { accountRoutes } from './modules/account/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import type { AccountDirectory } from './modules/auth/trading-identity.js';
import type { WalletLogin } from './modules/auth/wallet-login.js';
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
  readonly login: WalletLogin;
  readonly builder: OrderBuilder;
  readonly intake: OrderIntake;
  readonly queries: OrderQueries;
}

/** Incoming request ids are kept when they are short and plain; anything else gets a fresh UUID. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Builds the order book API without listening: main calls `listen`, tests call `inject`. The
 * WebSocket streams answer upgrades on the same HTTP server once it listens.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, store, registry, engines, tokens, clock } = deps;
  const app = Fastify({
    loggerInstance: deps.logger,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    routerOptions: { maxParamLength: 128 },
    // Our own hook answers 503 in the catalogue's shape while the server drains.
    return503OnClosing: false,
  });

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new AppError('SHUTTING_DOWN');
  });

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  });
  installErrorHandling(app);
  // JSON is the only body this API reads; anything else is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Order book API',
        version: '1',
        description:
          'Public market data, wallet login and signed orders of the exchange. Errors always answer `{ "error": message, "code": CODE }`. Raw token amounts are integer strings.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const caller = publicCaller(config.openMarketData, tokens);
  const marketData = new MarketDataService(registry, engines, store, clock, config);

  await app.register(healthRoutes, { network: config.network, store, clock, books: () => registry.list().length });
  await app.register(marketDataRoutes, { service: marketData, caller, openMarketData: config.openMarketData });
  await app.register(signatureRoutes, { caller, domain: deps.domain });
  await app.register(authRoutes, { login: deps.login });
  await app.register(accountRoutes, { tokens, registry, fees: deps.fees });
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
