import { bytesToHex, type Eip712Domain, type PartialFillLimitOrder } from '@dex/core';
import { OrderMismatchError } from '../errors.js';
import type { BuiltOrder, OrderRequest, RequestFlag } from '../order-types.js';
import { orderDigest, type Signer } from './signer.js';

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
/** The longest deadline the rules allow (90 days), plus an hour for clocks that disagree. */
const MAX_DEADLINE_SECONDS = 90 * 86_400 + 3_600;
/** How far past a requested deadline the server may move it: its minimum is now + 60 s. */
const DEADLINE_FLOOR_SECONDS = 120;

const isSet = (flag: RequestFlag | undefined): boolean => flag === true || flag === 1;

export interface BuiltOrderExpectations {
  readonly signer: Signer;
  readonly domain: Eip712Domain;
  /** The request the order was built from; without it only the account-level checks run. */
  readonly request?: OrderRequest | undefined;
  /** Unix seconds on this side. */
  readonly now: number;
  /** The highest fee cap (pips) this client signs. */
  readonly maxFeePips: number;
}

/**
 * Checks, before signing, that the server built exactly the order asked for: this signer as
 * swapper, this network's reactor, no extra validation contract, the requested tokens, amounts,
 * recipient and flags, a sane deadline, bounded fee caps, and the digest this side computes. A
 * client that signs whatever comes back would sign a server's mistake, or an attacker's order.
 */
export function checkBuiltOrder(
  index: number,
  built: BuiltOrder,
  order: PartialFillLimitOrder,
  expected: BuiltOrderExpectations,
): void {
  const differs = (field: string, want: unknown, got: unknown) => {
    if (want !== got) throw new OrderMismatchError(index, field, `expected ${String(want)}, got ${String(got)}`);
  };
  const { info, input, output } = order;
  differs('info.swapper', expected.signer.swapper.toLowerCase(), info.swapper);
  differs('info.reactor', expected.domain.verifyingContract.toLowerCase(), info.reactor);
  differs('info.additionalValidationContract', ZERO_ADDRESS, info.additionalValidationContract);
  differs('info.additionalValidationData', '0x', info.additionalValidationData);
  if (info.deadline > BigInt(expected.now + MAX_DEADLINE_SECONDS)) {
    throw new OrderMismatchError(index, 'info.deadline', `${info.deadline} is more than 90 days away`);
  }
  for (const [field, cap] of [
    ['maxTakerFeePips', order.maxTakerFeePips],
    ['maxMakerFeePips', order.maxMakerFeePips],
  ] as const) {
    if (cap > expected.maxFeePips) {
      throw new OrderMismatchError(index, field, `${cap} pips is above the ${expected.maxFeePips} this client signs`);
    }
  }

  const { request } = expected;
  if (request !== undefined) {
    differs('meta.orderbookId', String(request.orderbookId), String(built.meta.orderbookId));
    differs('meta.type', request.type, built.meta.type);
    differs('input.token', request.inputToken.toLowerCase(), input.token);
    differs('input.amount', request.inputAmount, input.amount.toString());
    differs('output.token', request.outputToken.toLowerCase(), output.token);
    differs('output.amount', request.outputAmount, output.amount.toString());
    differs('output.recipient', (request.recipient ?? expected.signer.swapper).toLowerCase(), output.recipient);
    differs('makerOnly', isSet(request.makerOnly), order.makerOnly);
    differs('takerOnce', isSet(request.takerOnce), order.takerOnce);
    // The build may turn an opt-in down (a book without a pool), never opt in an order that did not ask.
    if (built.meta.isAMMEnabled === true && !isSet(request.isAMMEnabled)) {
      throw new OrderMismatchError(index, 'meta.isAMMEnabled', 'the order did not opt in to the pool');
    }
    if (request.type === 'LIMIT' && request.deadline !== undefined) {
      const latest = BigInt(Math.max(Number(request.deadline), expected.now + DEADLINE_FLOOR_SECONDS));
      if (info.deadline > latest) {
        throw new OrderMismatchError(index, 'info.deadline', `asked for ${request.deadline}, got ${info.deadline}`);
      }
    }
  }

  // Last: a different digest with every field as expected means the server signs for another domain.
  differs('meta.orderHash', bytesToHex(orderDigest(order, expected.domain)), built.meta.orderHash.toLowerCase());
}
