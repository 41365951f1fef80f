import { AccountBookParams, FeesQuery, FeesResponse, ONBOARDING_STEPS, OnboardingResponse } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { FeeSchedule } from '../../../application/accounts/fee-schedule.js';
import type { AccessTokens } from '../../../application/auth/access-tokens.js';
import type { AccountDirectory } from '../../../application/auth/trading-identity.js';
import type { Market, MarketRegistry } from '../../../application/markets/market-registry.js';
import { AppError, failingAs } from '../../../domain/errors.js';
import { single } from '../../../domain/query-values.js';
import type { FundsReader, TokenOnboarding } from '../../../ports/funds.js';
import { requirePrincipal } from '../access.js';
import { errorResponses } from '../schemas.js';
import { noStore } from '../security-headers.js';

/** A book id as a bytes32 value in 0x-hex, the form the live API gives market ids in. */
export function marketIdOf(bookId: number): string {
  return `0x${bookId.toString(16).padStart(64, '0')}`;
}

function marketOf(registry: MarketRegistry, text: string): Market {
  const market = registry.find(text);
  if (market === undefined) throw new AppError('ORDERBOOK_NOT_FOUND');
  return market;
}

/**
 * The six live onboarding steps of the book's tokens for the swapper, read from the chain (every
 * step complete without one), and the addresses the pending ones are sent to.
 */
async function onboardingStatus(market: Market, chain: { funds: FundsReader; swapper: string } | null, reactor: string) {
  // A native-coin side is read, and approved, as the wrapped token it settles in.
  const { base, quote } = market.settlement;
  let read = new Map<string, TokenOnboarding>();
  let permit2: string | null = null;
  if (chain !== null) {
    const { funds, swapper } = chain;
    [read, permit2] = await failingAs(
      'FUNDS_UNAVAILABLE',
      Promise.all([funds.onboarding(swapper, [base, quote]), funds.permit2()]),
    );
  }
  const step = (token: string, name: keyof TokenOnboarding) => read.get(token)?.[name] ?? chain === null;
  // A native side settles in the wrapped token, which (a token of the ledger) needs its association.
  const steps = {
    associateBaseToken: step(base, 'associated'),
    associateQuoteToken: step(quote, 'associated'),
    approveBaseTokenPermit2: step(base, 'approvedToPermit2'),
    approveQuoteTokenPermit2: step(quote, 'approvedToPermit2'),
    approveBaseTokenReactor: step(base, 'approvedToReactor'),
    approveQuoteTokenReactor: step(quote, 'approvedToReactor'),
  };
  const completedSteps = ONBOARDING_STEPS.filter((name) => steps[name]);
  const pendingSteps = ONBOARDING_STEPS.filter((name) => !steps[name]);
  // The addresses are our addition: with them a client can send the pending steps from this answer alone.
  return {
    steps,
    pendingSteps,
    completedSteps,
    isComplete: pendingSteps.length === 0,
    baseToken: base,
    quoteToken: quote,
    reactor,
    permit2,
  };
}

/** `GET /fees/:orderbookId` and `GET /onboarding/:orderbookId/status`, for the signed-in account. */
export async function accountRoutes(
  fastify: FastifyInstance,
  options: {
    tokens: AccessTokens;
    registry: MarketRegistry;
    fees: FeeSchedule;
    directory: AccountDirectory;
    /** Allowances on the settlement chain; null without one. */
    funds: FundsReader | null;
    /** The reactor of the signing domain: the spender each token is approved to inside Permit2. */
    reactor: string;
  },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { tokens, registry, fees, directory, funds } = options;
  const reactor = options.reactor.toLowerCase();
  const tags = ['account'];
  app.addHook('onSend', noStore);
  const security = [{ bearer: [] }];

  app.get(
    '/fees/:orderbookId',
    {
      schema: {
        tags,
        security,
        summary: "The account's fee rates on a book",
        description: "The book's rates, or the operator's override for this account.",
        params: AccountBookParams,
        querystring: FeesQuery,
        response: { 200: FeesResponse, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { account } = await requirePrincipal(request, tokens);
      const side = single(request.query.side, 'side') ?? 'maker';
      if (side !== 'maker' && side !== 'taker') throw new AppError('VALIDATION_FAILED', 'side must be maker or taker');
      const chosen: 'maker' | 'taker' = side;
      const market = marketOf(registry, request.params.orderbookId);
      return { side: chosen, marketId: marketIdOf(market.book.id), ...(await fees.rates(account, market)) };
    },
  );

  app.get(
    '/onboarding/:orderbookId/status',
    {
      schema: {
        tags,
        security,
        summary: 'Whether the account can trade a book',
        description:
          "Read from the settlement chain, as the live service reports it: each token's association (what the token itself answers; complete for a token without associations), its approval to Permit2 (an ERC-20 allowance above zero), and the reactor's approval inside Permit2 (an unexpired allowance above zero). The reactor pulls every fill through Permit2; a direct allowance to the reactor counts for nothing. Without a settlement chain (CHAIN=off) every step is complete. Beyond the live answer it names the book's tokens, the reactor and Permit2, the addresses the pending steps are sent to.",
        params: AccountBookParams,
        response: { 200: OnboardingResponse, ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => {
      const { account } = await requirePrincipal(request, tokens);
      const market = marketOf(registry, request.params.orderbookId);
      const chain = funds === null ? null : { funds, swapper: (await directory.require(account)).swapper };
      return onboardingStatus(market, chain, reactor);
    },
  );
}
