import { AccountBookParams, FeesQuery, FeesResponse, ONBOARDING_STEPS, OnboardingResponse } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { FeeSchedule } from '../../../application/accounts/fee-schedule.js';
import type { AccessTokens } from '../../../application/auth/access-tokens.js';
import type { AccountDirectory } from '../../../application/auth/trading-identity.js';
import type { Market, MarketRegistry } from '../../../application/markets/market-registry.js';
import { AppError } from '../../../domain/errors.js';
import { single } from '../../../domain/query-values.js';
import type { FundsReader } from '../../../ports/funds.js';
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
  },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { tokens, registry, fees, directory, funds } = options;
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
          "Read from the settlement chain: the reactor approvals are complete when the account has given the reactor an allowance of the book's base and quote token. Token association and Permit2 approvals are steps of the production ledger's token service that this deployment's ERC-20 settlement does not have; they are reported complete. Without a settlement chain (CHAIN=off) every step is complete.",
        params: AccountBookParams,
        response: { 200: OnboardingResponse, ...errorResponses(401, 404, 503) },
      },
    },
    async (request) => {
      const { account } = await requirePrincipal(request, tokens);
      const market = marketOf(registry, request.params.orderbookId);
      let approved = { base: true, quote: true };
      if (funds !== null) {
        const { swapper } = await directory.require(account);
        const holdings = await funds.holdings(swapper, [market.base.evmAddress, market.quote.evmAddress]);
        const allowed = (token: string) => (holdings.get(token.toLowerCase())?.allowance ?? 0n) > 0n;
        approved = { base: allowed(market.base.evmAddress), quote: allowed(market.quote.evmAddress) };
      }
      const steps = {
        associateBaseToken: true,
        associateQuoteToken: true,
        approveBaseTokenPermit2: true,
        approveQuoteTokenPermit2: true,
        approveBaseTokenReactor: approved.base,
        approveQuoteTokenReactor: approved.quote,
      };
      const completedSteps = ONBOARDING_STEPS.filter((name) => steps[name]);
      const pendingSteps = ONBOARDING_STEPS.filter((name) => !steps[name]);
      return { steps, pendingSteps, completedSteps, isComplete: pendingSteps.length === 0 };
    },
  );
}
