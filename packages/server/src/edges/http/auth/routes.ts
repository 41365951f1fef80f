import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import type { WalletLogin } from '../../../application/auth/wallet-login.js';
import { AppError } from '../../../domain/errors.js';
import { errorResponses } from '../schemas.js';

const AccountId = Type.String({
  maxLength: 64,
  description: 'A ledger account `0.0.X` (key type from the account registry) or a 0x secp256k1 address',
});

const ChallengeBody = Type.Object({ accountId: AccountId }, { additionalProperties: false });
const ChallengeResponse = Type.Object({
  message: Type.String({ description: 'Sign exactly this text; it is single-use and expires within minutes' }),
});
const VerifyBody = Type.Object(
  {
    accountId: AccountId,
    signature: Type.String({
      maxLength: 200,
      description:
        '0x hex. 0x accounts and ECDSA ledger accounts: 65-byte EIP-191 personal-sign; ED25519: 64-byte signature of the message bytes',
    }),
  },
  { additionalProperties: false },
);
const VerifyResponse = Type.Object({
  token: Type.String({ description: 'Access token: send as Authorization: Bearer <token>' }),
});

function accountOf(text: string): string {
  const account = normaliseAccountId(text);
  if (account === undefined) throw new AppError('INVALID_ACCOUNT');
  return account;
}

/** `POST /auth/challenge` and `POST /auth/verify`: wallet login. */
export async function authRoutes(fastify: FastifyInstance, options: { login: WalletLogin }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { login } = options;
  const tags = ['auth'];

  app.post(
    '/auth/challenge',
    {
      schema: {
        tags,
        summary: 'Open a login challenge',
        body: ChallengeBody,
        response: { 200: ChallengeResponse, ...errorResponses(400, 415, 503) },
      },
    },
    async (request) => ({ message: await login.challenge(accountOf(request.body.accountId)) }),
  );

  app.post(
    '/auth/verify',
    {
      schema: {
        tags,
        summary: 'Exchange a signed challenge for an access token',
        body: VerifyBody,
        response: { 200: VerifyResponse, ...errorResponses(400, 401, 415, 503) },
      },
    },
    async (request) => ({ token: await login.verify(accountOf(request.body.accountId), request.body.signature) }),
  );
}
