import { parseRawAmount } from '@dex/core';
import {
  BuildBody,
  BuildResponse,
  CancelAfterBody,
  CancelAfterResponse,
  CancelAllBody,
  CancelBody,
  CancelResponse,
  HistoryQuery,
  HistoryResponse,
  OrderParams,
  OrdersQuery,
  OrdersResponse,
  SaveBody,
  SaveResponse,
} from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccessTokens, Principal } from '../../../application/auth/access-tokens.js';
import type { AccountDirectory } from '../../../application/auth/trading-identity.js';
import type { OrderDesk } from '../../../application/desk/order-desk.js';
import type { CancelAfterSwitches } from '../../../application/orders/cancel-after.js';
import type { OrderBuilder } from '../../../application/orders/order-builder.js';
import type { OrderIntake } from '../../../application/orders/order-intake.js';
import type { OrderQueries } from '../../../application/orders/order-queries.js';
import { savedOrderOf } from '../../../application/orders/order-views.js';
import { AppError } from '../../../domain/errors.js';
import type { Clock } from '../../../ports/clock.js';
import type { RateBuckets } from '../../../ports/rate-buckets.js';
import { requirePrincipal } from '../access.js';
import { rateLimitHook } from '../rate-limit.js';
import { errorResponses } from '../schemas.js';
import { noStore } from '../security-headers.js';
import type { TypedApp } from '../typed-app.js';

/** What a 202 says, by whether a cancellation waits for the reactor (a chain settles) or is final at once. */
const CANCEL_MESSAGES = {
  reactor:
    'Cancellation accepted: the orders are off their books; ORDER_CANCELED on /ws/user-events or in the order history confirms each once the reactor has it.',
  atOnce:
    'Cancellation accepted: the orders are off their books and canceled, final at once since no chain settles here; ORDER_CANCELED is on /ws/user-events and in the order history.',
};

export interface OrderRoutesOptions {
  readonly tokens: AccessTokens;
  readonly directory: AccountDirectory;
  readonly builder: OrderBuilder;
  readonly intake: OrderIntake;
  readonly desk: OrderDesk;
  readonly cancelAfter: CancelAfterSwitches;
  readonly queries: OrderQueries;
  /** Whether a cancellation is final only once the reactor confirms it (a chain settles), not at once. */
  readonly cancelsWaitForReactor: boolean;
  /** The token buckets of the order routes, per IP and per account; null: no limit. */
  readonly rateBuckets: RateBuckets | null;
  readonly clock: Clock;
}

const tags = ['orders'];
const security = [{ bearer: [] }];

/** What a request costs of the order rate limit: a batch its size (orders built, saved or cancelled), anything else 1. */
function batchSize(request: FastifyRequest): number {
  const body = request.body;
  const batch = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null
      ? ['orderRequests', 'items', 'orderIds'].map((field) => (body as Record<string, unknown>)[field]).find(Array.isArray)
      : undefined;
  return Math.max(1, batch?.length ?? 1);
}

/** What each group of order routes needs: the services, and the account of an authenticated request. */
interface OrderRouteContext {
  readonly options: OrderRoutesOptions;
  readonly accountOf: (request: FastifyRequest) => string;
}

/** The account's order routes: build, save, cancel, the dead-man switch, list and history. Every one needs a JWT. */
export async function orderRoutes(fastify: FastifyInstance, options: OrderRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // Authenticate before the body is even read: a caller without a token learns nothing else.
  const principals = new WeakMap<FastifyRequest, Principal>();
  app.addHook('onSend', noStore);
  app.addHook('onRequest', async (request) => {
    principals.set(request, await requirePrincipal(request, options.tokens));
  });
  app.addHook(
    'preHandler',
    rateLimitHook(options.rateBuckets, { account: (request) => principals.get(request)?.account, cost: batchSize }),
  );
  const accountOf = (request: FastifyRequest): string => {
    const principal = principals.get(request);
    if (principal === undefined) throw new AppError('MISSING_AUTHORIZATION');
    return principal.account;
  };

  // Registered in this order so that the OpenAPI document lists the routes as before.
  const context = { options, accountOf };
  submissionRoutes(app, context);
  cancelRoutes(app, context);
  queryRoutes(app, context);
}

/** `POST /orders/build` and `POST /orders/save`. */
function submissionRoutes(app: TypedApp, { options, accountOf }: OrderRouteContext): void {
  const { directory, builder, intake } = options;
  app.post(
    '/orders/build',
    {
      schema: {
        tags,
        security,
        summary: 'Build orders to sign',
        description:
          'Checks each request against its book and returns the EIP-712 PartialFillLimitOrder to sign, with a server-assigned nonce, a clamped deadline and the fee caps of the account.',
        body: BuildBody,
        response: { 200: BuildResponse, ...errorResponses(400, 401, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const identity = await directory.require(accountOf(request));
      const requests = Array.isArray(request.body) ? request.body : request.body.orderRequests;
      return { orders: await builder.build(identity, requests) };
    },
  );

  app.post(
    '/orders/save',
    {
      schema: {
        tags,
        security,
        summary: 'Save signed orders',
        description:
          'Verifies every signature and rule of the batch before any order reaches a book, stores the orders durably, then matches them. Saving the same signed order again returns the same order.',
        body: SaveBody,
        response: { 200: SaveResponse, ...errorResponses(400, 401, 403, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const identity = await directory.require(accountOf(request));
      const links = request.body.ocoLinks ?? [];
      const outcome = await intake.save(identity, request.body.items, links);
      const orders = outcome.orders.map(({ record, order }) => savedOrderOf(record, order));
      return links.length === 0 ? { orders } : { orders, oco: { links: outcome.links } };
    },
  );
}

/** `POST /cancel`, `POST /cancel/all` and the dead-man switch `POST /cancel/after`. */
function cancelRoutes(app: TypedApp, { options, accountOf }: OrderRouteContext): void {
  const cancelMessage = options.cancelsWaitForReactor ? CANCEL_MESSAGES.reactor : CANCEL_MESSAGES.atOnce;
  const { desk, cancelAfter } = options;
  app.post(
    '/cancel',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel orders',
        description:
          'Takes the orders off their books at once and answers 202; ORDER_CANCELED in the history (and the user stream) confirms finality.',
        body: CancelBody,
        response: { 202: CancelResponse, ...errorResponses(400, 401, 413, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      const { accepted, skipped } = await desk.cancel(accountOf(request), request.body.orderIds.map(Number));
      return reply.status(202).send({
        status: 'PENDING' as const,
        message: cancelMessage,
        accepted,
        skipped: skipped.map((item) => item.orderId),
        skippedDetails: skipped,
      });
    },
  );

  app.post(
    '/cancel/all',
    {
      schema: {
        tags,
        security,
        summary: 'Cancel every order below a nonce floor',
        description:
          'Raises the nonce floor of the account: open orders with a lower nonce are cancelled, and no such order can be saved later.',
        body: CancelAllBody,
        response: { 202: CancelResponse, ...errorResponses(400, 401, 415, 429, 503) },
      },
    },
    async (request, reply) => {
      // At most 2^256 - 1: the reactor's floor is a uint256, and a larger one could never be relayed.
      const floor = parseRawAmount(request.body.nonceFloor, 'nonceFloor');
      const accepted = await desk.cancelBelowFloor(accountOf(request), floor);
      return reply.status(202).send({
        status: 'PENDING' as const,
        message: cancelMessage,
        accepted,
        skipped: [],
        skippedDetails: [],
        nonceFloor: floor.toString(),
      });
    },
  );

  app.post(
    '/cancel/after',
    {
      schema: {
        tags,
        security,
        summary: 'Dead-man switch: cancel every order after a timeout',
        description:
          "Arms the account's one switch, replacing the last: unless called again first, every open order of the account is cancelled timeoutSeconds from now, as by /cancel/all with a floor above every nonce it was issued (orders built but not saved are void too), with reason CANCEL_AFTER. 0 disarms it. Call it every few seconds with a longer timeout as a keep-alive.",
        body: CancelAfterBody,
        response: { 200: CancelAfterResponse, ...errorResponses(400, 401, 415, 429, 503) },
      },
    },
    async (request) => cancelAfter.arm(accountOf(request), Number(request.body.timeoutSeconds)),
  );
}

/** `GET /orders` and `GET /orders/:orderId/history`: what a client recovers its state from. */
function queryRoutes(app: TypedApp, { options, accountOf }: OrderRouteContext): void {
  const { queries } = options;
  app.get(
    '/orders',
    {
      schema: {
        tags,
        security,
        summary: "The account's orders",
        description:
          'Newest first; filter by status (comma-separated) and book. lastUpdateId is the latest order event reflected.',
        querystring: OrdersQuery,
        response: { 200: OrdersResponse, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => queries.list(accountOf(request), request.query),
  );

  app.get(
    '/orders/:orderId/history',
    {
      schema: {
        tags,
        security,
        summary: 'Event history of one order',
        description: 'Oldest first, a page at a time (`page` from 1, `limit` default 100, at most 1000).',
        params: OrderParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request) => queries.history(accountOf(request), request.params.orderId, request.query),
  );
}
