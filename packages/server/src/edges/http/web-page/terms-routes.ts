import { FORM } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AccessTokens } from '../../../application/auth/access-tokens.js';
import type { WebTerms } from '../../../application/web-terms/web-terms.js';
import { requirePrincipal } from '../access.js';
import { noStore } from '../security-headers.js';

const AcceptBody = Type.Object(
  {
    accept: Type.Array(
      Type.Object(
        {
          document: Type.String({ minLength: 1, maxLength: 64 }),
          version: Type.String({ minLength: 1, maxLength: 64 }),
          sha256: Type.String({
            pattern: '^[0-9a-fA-F]{64}$',
            [FORM]: 'the SHA-256 of the text as 64 hex digits, as GET /web/terms gives it',
          }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 2 },
    ),
  },
  // No account in the body: an acceptance is always the logged-in account's own.
  { additionalProperties: false },
);

/**
 * The web application's acceptance step, beside the page and like it left out of the order book
 * API's OpenAPI document: `GET /web/terms` (the current texts, with version and SHA-256),
 * `GET /web/terms/acceptance` (what the logged-in account has still to accept) and
 * `POST /web/terms/acceptance` (records its acceptance, committed before the answer). No order
 * route asks for it: the seed binds API clients by the API terms instead.
 */
export async function webTermsRoutes(
  fastify: FastifyInstance,
  options: { terms: WebTerms; tokens: AccessTokens },
): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { terms, tokens } = options;
  app.addHook('onSend', noStore);

  app.get('/web/terms', { schema: { hide: true } }, async () => ({ texts: terms.texts }));

  app.get('/web/terms/acceptance', { schema: { hide: true } }, async (request) => {
    const { account } = await requirePrincipal(request, tokens);
    return { account, pending: await terms.pending(account) };
  });

  app.post('/web/terms/acceptance', { schema: { hide: true, body: AcceptBody } }, async (request) => {
    const { account } = await requirePrincipal(request, tokens);
    const accepted = await terms.accept(account, request.body.accept, request.ip);
    return { account, pending: await terms.pending(account), accepted };
  });
}
