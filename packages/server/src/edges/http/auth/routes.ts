import { ChallengeBody, ChallengeResponse, VerifyBody, VerifyResponse } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import type { WalletLogin } from '../../../application/auth/wallet-login.js';
import { AppError } from '../../../domain/errors.js';
import type { RateBuckets } from '../../../ports/rate-buckets.js';
import { rateLimitHook } from '../rate-limit.js';
import { errorResponses } from '../schemas.js';
import { noStore } from '../security-headers.js';

function accountOf(text: string): string {
  const account = normaliseAccountId(text);
  if (account === undefined) throw new AppError('INVALID_ACCOUNT');
  return account;
}

/** `POST /auth/challenge` and `POST /auth/verify`: wallet login. */
export async function authRoutes(
  fastify: FastifyInstance,
  options: {
    login: WalletLogin;
    /** Per client address (AUTH_RATE_LIMIT): floods of challenges and guesses at signatures cost the flooder. */
    rateBuckets: RateBuckets | null;
  },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { login } = options;
  const tags = ['auth'];
  app.addHook('onSend', noStore);
  app.addHook('onRequest', rateLimitHook(options.rateBuckets, { account: () => undefined }));

  app.post(
    '/auth/challenge',
    {
      schema: {
        tags,
        summary: 'Open a login challenge',
        body: ChallengeBody,
        response: { 200: ChallengeResponse, ...errorResponses(400, 415, 429, 503) },
      },
    },
    async (request) => ({ message: await login.challenge(accountOf(request.body.accountId), request.ip) }),
  );

  app.post(
    '/auth/verify',
    {
      schema: {
        tags,
        summary: 'Exchange a signed challenge for an access token',
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 401, 415, 429, 503) },
      },
    },
    async (request) => ({ token: await login.verify(accountOf(request.body.accountId), request.body.signature) }),
  );
}
