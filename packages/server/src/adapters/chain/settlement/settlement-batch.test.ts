import { toWireOrder } from '@dex/core';
import { describe, expect, it } from 'vitest';
import type { SettlementOrder, UnsettledTrade } from '../../../ports/store/settlement-ports.js';
import { settlementBatch, withoutFills } from './settlement-batch.js';

const BASE = `0x${'a'.repeat(40)}`;
const QUOTE = `0x${'b'.repeat(40)}`;

/** A stored signed order of `orderId` spending `input` (fee caps 500 pips). */
function order(orderId: number, input: string, output: string): SettlementOrder {
  const swapper = `0x${String(orderId).padStart(40, '0')}`;
  const wire = toWireOrder({
    info: {
      reactor: `0x${'1'.repeat(40)}`,
      swapper,
      nonce: BigInt(orderId),
      deadline: 2_000_000_000n,
      additionalValidationContract: `0x${'0'.repeat(40)}`,
      additionalValidationData: '0x',
    },
    input: { token: input, amount: 1_000_000n },
    output: { token: output, amount: 1n, recipient: swapper },
    makerOnly: false,
    takerOnce: false,
    maxTakerFeePips: 500,
    maxMakerFeePips: 500,
  } as Parameters<typeof toWireOrder>[0]);
  return {
    orderId,
    account: `0.0.${orderId}`,
    orderHash: `0x${String(orderId).padStart(64, '0')}`,
    signedOrder: JSON.stringify(wire),
    signature: '0x00',
  };
}

/** A buy of `base` for `quote` by order 2, from order 1 or (maker null) from the pool. */
function trade(tradeId: number, maker: SettlementOrder | null, base: bigint, quote: bigint): UnsettledTrade {
  return {
    tradeId,
    bookId: 1,
    direction: 'buy',
    price: '0.25',
    baseAmount: base,
    quoteAmount: quote,
    status: 'pending',
    txHash: null,
    maker,
    taker: order(2, QUOTE, BASE),
  };
}

const maker = order(1, BASE, QUOTE);
const rates = () => ({ makerFeePips: 100, takerFeePips: 1_000, capFractionPips: 0 });

describe('settlement batches with swaps', () => {
  it('sends a trade without a maker as a pool fill: the taker pays its input in and takes the output, fee capped by its order', () => {
    const batch = settlementBatch([trade(5, null, 40n, 11n), trade(6, maker, 30n, 8n), trade(7, null, 20n, 6n)], rates);
    expect(batch.fills).toEqual([
      {
        fillId: 6n,
        maker: 1,
        taker: 0,
        makerFeePips: 100,
        takerFeePips: 500,
        makerRebatePips: 0,
        rebateCapPips: 0,
        makerAmount: 30n,
        takerAmount: 8n,
      },
    ]);
    expect(batch.poolFills).toEqual([
      { fillId: 5n, taker: 0, takerFeePips: 500, amountIn: 11n, amountOut: 40n },
      { fillId: 7n, taker: 0, takerFeePips: 500, amountIn: 6n, amountOut: 20n },
    ]);
    // Outcomes come back fills first, then pool fills: the trades are listed in that order.
    expect(batch.trades.map((each) => each.tradeId)).toEqual([6, 5, 7]);
    expect(batch.orders).toHaveLength(2);
  });

  it('sends a negative maker fee as a rebate with its cap and no maker fee, whatever the maker signed', () => {
    const rebate = () => ({ makerFeePips: -250, takerFeePips: 1_000, capFractionPips: 250_000 });
    const [fill] = settlementBatch([trade(6, maker, 30n, 8n)], rebate).fills;
    expect(fill).toMatchObject({ makerFeePips: 0, makerRebatePips: 250, rebateCapPips: 250_000, takerFeePips: 500 });
  });

  it('drops trades by their place among the outcomes, fills and pool fills alike, and the orders no fill uses', () => {
    const batch = settlementBatch([trade(5, null, 40n, 11n), trade(6, maker, 30n, 8n), trade(7, null, 20n, 6n)], rates);
    const rest = withoutFills(batch, new Set([0, 1]));
    expect(rest.fills).toEqual([]);
    expect(rest.poolFills).toEqual([{ fillId: 7n, taker: 0, takerFeePips: 500, amountIn: 6n, amountOut: 20n }]);
    expect(rest.trades.map((each) => each.tradeId)).toEqual([7]);
    expect(rest.orders).toHaveLength(1);
  });
});
