import { SignatureDomainSchema } from '@dex/protocol';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { PublicCaller } from '../access.js';
import { errorResponses } from '../schemas.js';

export interface SignatureRoutesOptions {
  readonly domain: { name: string; version: string; chainId: number; verifyingContract: string };
  /** Resolves the caller or throws a 401, per the network's open-access switch. */
  readonly caller: PublicCaller;
}

/** `GET /signature/domain`: the EIP-712 domain that orders of this network are signed against. */
export async function signatureRoutes(fastify: FastifyInstance, options: SignatureRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/signature/domain',
    {
      schema: {
        tags: ['market data'],
        summary: 'EIP-712 signing domain',
        description: 'Sign PartialFillLimitOrder typed data against this domain; verifyingContract is the reactor.',
        response: { 200: SignatureDomainSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      await options.caller(request);
      return options.domain;
    },
  );
}
