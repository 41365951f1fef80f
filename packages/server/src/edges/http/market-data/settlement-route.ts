import { SettlementParams, SettlementProofResponse } from '@dex/protocol';
import { AppError } from '../../../domain/errors.js';
import type { SettlementProofs } from '../../../ports/settlement-proofs.js';
import { errorResponses } from '../schemas.js';
import type { TypedApp } from '../typed-app.js';

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

/** `GET /settlements/:transactionHash`: what a trade's transaction did, after the node forgot its receipt too. */
export function settlementRoute(app: TypedApp, proofs: SettlementProofs): void {
  app.get(
    '/settlements/:transactionHash',
    {
      schema: {
        tags: ['market data'],
        summary: 'Settlement proof of a transaction',
        description:
          "The reactor's events of a settlement transaction named by the tape or an order history, as the service saw them on the chain: check them against the node's receipt while it keeps one, and the settled fills against the reactor's isFillSettled at any time (docs/settlement.md). This exchange's addition.",
        params: SettlementParams,
        response: { 200: SettlementProofResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { transactionHash } = request.params;
      if (!TRANSACTION_HASH.test(transactionHash)) {
        throw new AppError('VALIDATION_FAILED', 'transactionHash must be 0x and 64 hex digits, as the tape gives it');
      }
      const proof = await proofs.ofTransaction(transactionHash);
      if (proof === null) {
        throw new AppError('NOT_FOUND', `no settlement transaction ${transactionHash} is known to this service`);
      }
      return proof;
    },
  );
}
