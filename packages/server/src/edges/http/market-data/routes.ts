import {
  BookParams,
  BooksResponse,
  DepthResponse,
  ExactInputQuery,
  ExactInputQuoteResponse,
  ExactOutputQuery,
  ExactOutputQuoteResponse,
  PageQuery,
  TradesQuery,
  TradesResponse,
} from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { BookDepth, BooksBody, MarketDataService } from '../../../application/market-data/market-data-service.js';
import { AppError } from '../../../domain/errors.js';
import { parseBookId } from '../../../domain/markets/market.js';
import { parseCount, parseFlag, parseSort, single } from '../../../domain/query-values.js';
import type { SettlementProofs } from '../../../ports/settlement-proofs.js';
import type { PublicCaller } from '../access.js';
import { errorResponses } from '../schemas.js';
import type { TypedApp } from '../typed-app.js';
import { candleRoute } from './candle-route.js';
import { SerialisedAnswers, sendJsonText, TimestampedAnswers } from './serialised-answers.js';
import { settlementRoute } from './settlement-route.js';

export interface MarketDataRoutesOptions {
  readonly service: MarketDataService;
  readonly caller: PublicCaller;
  /** Off: the trade tape, candles and quotes are not mounted (the caller already demands a JWT). */
  readonly openMarketData: boolean;
  /** What the service kept of settlement transactions, served beside the tape that names them. */
  readonly settlements: SettlementProofs;
}

const TRADES_DEFAULT_LIMIT = 10;
const TRADES_MAX_LIMIT = 100;
const BOOKS_DEFAULT_LIMIT = 100;
const BOOKS_MAX_LIMIT = 500;

function required(value: string | string[] | undefined, name: string): string {
  const text = single(value, name);
  if (text === undefined || text === '') throw new AppError('MISSING_PARAMETER', `${name} is required`);
  return text;
}

const tags = ['market data'];

/** The public market-data routes of the order book API. */
export async function marketDataRoutes(fastify: FastifyInstance, options: MarketDataRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  bookRoutes(app, options);
  if (!options.openMarketData) return;
  tradeRoutes(app, options);
  settlementRoute(app, options.settlements);
  candleRoute(app, options.service);
  quoteRoutes(app, options);
}

/**
 * `GET /books` and `GET /depth/:orderbookId`, behind the caller check. Both send text serialised
 * once per change of what they answer (the most read routes of the service).
 */
function bookRoutes(app: TypedApp, { service, caller }: MarketDataRoutesOptions): void {
  const booksTexts = new SerialisedAnswers<BooksBody>();
  const depthTexts = new TimestampedAnswers<BookDepth>();
  app.get(
    '/books',
    {
      schema: {
        tags,
        summary: 'List order books',
        description: 'Every order book with its grid, fees and 24-hour figures (from 5-minute candles).',
        querystring: PageQuery,
        response: { 200: BooksResponse, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await caller(request);
      const { query } = request;
      const page = parseCount(single(query.page, 'page'), 1);
      const limit = parseCount(single(query.limit, 'limit'), BOOKS_DEFAULT_LIMIT, BOOKS_MAX_LIMIT);
      return sendJsonText(reply, booksTexts.text(await service.books(page, limit), reply));
    },
  );

  app.get(
    '/depth/:orderbookId',
    {
      schema: {
        tags,
        summary: 'Full depth snapshot',
        description: 'Aggregated price levels of an open book, with the update id that depth diffs continue from.',
        params: BookParams,
        response: { 200: DepthResponse, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      await caller(request);
      const { depth, timestamp } = service.depth(parseBookId(request.params.orderbookId));
      return sendJsonText(reply, depthTexts.text(depth, timestamp, reply));
    },
  );
}

/** `GET /trades/:orderbookId`: the trade tape, open to every caller. */
function tradeRoutes(app: TypedApp, { service }: MarketDataRoutesOptions): void {
  app.get(
    '/trades/:orderbookId',
    {
      schema: {
        tags,
        summary: 'Trade tape',
        description:
          'Market-wide fills, newest first by default. Invalid sort or a negative page/limit: 400. Zero or non-numeric page/limit: defaults (1, 10); limit is capped at 100. Served from a short-lived cache.',
        params: BookParams,
        querystring: TradesQuery,
        response: { 200: TradesResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { query } = request;
      const sort = parseSort(single(query.sort, 'sort'));
      const page = parseCount(single(query.page, 'page'), 1);
      const limit = parseCount(single(query.limit, 'limit'), TRADES_DEFAULT_LIMIT, TRADES_MAX_LIMIT);
      return service.trades(parseBookId(request.params.orderbookId), sort, page, limit);
    },
  );
}

/** The two quote routes; a caller with a valid JWT gets a fresh quote, others a briefly cached one. */
function quoteRoutes(app: TypedApp, { service, caller }: MarketDataRoutesOptions): void {
  app.get(
    '/books/:orderbookId/quote/exact-input',
    {
      schema: {
        tags,
        summary: 'Quote spending an exact input',
        description:
          'Simulates a market order on the current book (and its pool, on a book with isAMMEnabled: 1, when isAMMEnabled=true: what an order that opts in gets). Submit snappedInputAmount as inputAmount and suggestedOutputAmount as outputAmount. Anonymous callers get a briefly cached quote; callers with a valid JWT get a fresh one.',
        params: BookParams,
        querystring: ExactInputQuery,
        response: { 200: ExactInputQuoteResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const principal = await caller(request);
      const { query } = request;
      const inputToken = required(query.inputToken, 'inputToken');
      const inputAmount = required(query.inputAmount, 'inputAmount');
      const bookId = parseBookId(request.params.orderbookId);
      return service.quoteExactInput(bookId, inputToken, inputAmount, principal !== null, withPool(query.isAMMEnabled));
    },
  );

  app.get(
    '/books/:orderbookId/quote/exact-output',
    {
      schema: {
        tags,
        summary: 'Quote receiving an exact output',
        description:
          'Simulates a market order on the current book (and its pool, on a book with isAMMEnabled: 1, when isAMMEnabled=true: what an order that opts in gets). suggestedInputAmount is the safe ceiling to use as inputAmount. Anonymous callers get a briefly cached quote; callers with a valid JWT get a fresh one.',
        params: BookParams,
        querystring: ExactOutputQuery,
        response: { 200: ExactOutputQuoteResponse, ...errorResponses(400) },
      },
    },
    async (request) => {
      const principal = await caller(request);
      const { query } = request;
      const outputToken = required(query.outputToken, 'outputToken');
      const outputAmount = required(query.outputAmount, 'outputAmount');
      const bookId = parseBookId(request.params.orderbookId);
      return service.quoteExactOutput(bookId, outputToken, outputAmount, principal !== null, withPool(query.isAMMEnabled));
    },
  );
}

/**
 * A quote includes the book's pool (where it has one) only when asked, as an order trades with it
 * only when it opts in: a quote that counted the pool would promise an order without the opt-in
 * more than the book gives it.
 */
function withPool(value: string | string[] | undefined): boolean {
  return parseFlag(value, 'isAMMEnabled');
}
