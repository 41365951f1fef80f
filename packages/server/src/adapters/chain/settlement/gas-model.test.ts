import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SettlementOrder, UnsettledTrade } from '../../../ports/store/settlement-ports.js';
import { GasModel } from './gas-model.js';
import { ordersOf } from './trade-orders.js';

const LIMIT = 15_000_000;
/** The reactor's gas as bench:settlement measured it (least squares over 62 batches, within 42k). */
const PER_FILL = 105_000;
const PER_NEW_ED25519 = 290_000;

function order(id: number, ed25519: boolean): SettlementOrder {
  return {
    orderId: id,
    account: ed25519 ? `0.0.${id}` : `0x${id.toString(16).padStart(40, '0')}`,
    orderHash: `0x${id.toString(16).padStart(64, '0')}`,
    signedOrder: '{}',
    // The mode byte and 64 bytes (Ed25519) or 65 (secp256k1).
    signature: `0x00${'ab'.repeat(ed25519 ? 64 : 65)}`,
  };
}

/** Trades of a flow where each resting order fills `fillsPerMaker` times and a share of the orders is Ed25519. */
function flow(count: number, edShare: (index: number) => boolean, fillsPerMaker = 4, first = 0): UnsettledTrade[] {
  return Array.from({ length: count }, (_, offset) => {
    const index = first + offset;
    const makerIndex = Math.floor(index / fillsPerMaker);
    return {
      tradeId: index + 1,
      bookId: 1,
      direction: 'buy',
      price: '1',
      baseAmount: 1n,
      quoteAmount: 1n,
      status: 'pending',
      txHash: null,
      maker: order(1_000_000 + makerIndex, edShare(makerIndex)),
      taker: order(index, edShare(index)),
    };
  });
}

/** What the reactor would charge for these trades, none of whose orders it has seen. */
function trueGas(trades: readonly UnsettledTrade[], checked = new Set<string>()): number {
  const seen = new Set(checked);
  let gas = 0;
  for (const trade of trades) {
    gas += PER_FILL;
    for (const side of ordersOf(trade)) {
      if (seen.has(side.orderHash)) continue;
      seen.add(side.orderHash);
      if (side.signature.length === 2 + 130) gas += PER_NEW_ED25519;
    }
  }
  return gas;
}

/** Sends and mines batches of the flow as the settler would, returning the sizes it chose. */
function settle(model: GasModel, trades: UnsettledTrade[], max: number): number[] {
  const sizes: number[] = [];
  const checked = new Set<string>();
  for (let at = 0; at < trades.length; ) {
    const pending = trades.slice(at, at + max);
    const batch = pending.slice(0, model.fitting(pending));
    const gas = trueGas(batch, checked);
    const newEd25519 = model.sent(batch);
    for (const trade of batch) for (const side of ordersOf(trade)) checked.add(side.orderHash);
    model.mined(batch.length, newEd25519, BigInt(gas));
    sizes.push(batch.length);
    at += batch.length;
  }
  return sizes;
}

describe('GasModel', () => {
  it('takes every trade offered until it has seen a receipt', () => {
    expect(new GasModel(LIMIT).fitting(flow(150, () => true))).toBe(150);
  });

  it('learns the gas of a fill and of a new Ed25519 order from receipts: light batches grow, dense ones shrink', () => {
    const model = new GasModel(LIMIT);
    // Scattered Ed25519 orders, then a stretch of them only, then none (but the resting orders of
    // the first 2,000 ids, a tenth of which are Ed25519).
    const trades = flow(6_000, (index) => (index < 2_000 ? index % 10 === 0 : index < 2_500));
    const sizes = settle(model, trades, 200);
    // 0.95 x 15M at 105k + 290k / 40 a fill: 126 fills; at 105k + 1.25 x 290k: 31.
    expect(Math.min(...sizes.slice(-6, -1))).toBeGreaterThanOrEqual(120);
    expect(Math.min(...sizes)).toBeLessThanOrEqual(35);
    const dense = flow(150, () => true, 4, 100_000);
    const count = model.fitting(dense);
    expect(trueGas(dense.slice(0, count))).toBeLessThanOrEqual(LIMIT);
    expect(trueGas(dense.slice(0, count + 2))).toBeGreaterThan(0.95 * LIMIT);
  });

  it('does not count again the orders of a batch already sent', () => {
    const model = new GasModel(LIMIT);
    settle(
      model,
      flow(600, (index) => index % 7 === 0),
      100,
    );
    const edMakers = flow(40, () => true, 40, 20_000);
    const before = model.fitting(edMakers);
    model.sent(edMakers.slice(0, 1));
    // The one resting order is checked: the other fills cost a plain fill each.
    expect(model.fitting(edMakers)).toBeGreaterThanOrEqual(before);
    expect(model.sent(edMakers.slice(1))).toBe(39);
  });

  it('keeps every batch of any flow within the gas limit once it has seen a few receipts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 50, maxLength: 50 }),
        fc.integer({ min: 1, max: 8 }),
        (pattern, fillsPerMaker) => {
          const model = new GasModel(LIMIT);
          const trades = flow(2_000, (index) => pattern[index % pattern.length] === true, fillsPerMaker);
          const checked = new Set<string>();
          for (let at = 0, batches = 0; at < trades.length; batches++) {
            const pending = trades.slice(at, at + 150);
            const batch = pending.slice(0, model.fitting(pending));
            const gas = trueGas(batch, checked);
            if (batches >= 5) expect(gas).toBeLessThanOrEqual(LIMIT);
            model.mined(batch.length, model.sent(batch), BigInt(gas));
            for (const trade of batch) for (const side of ordersOf(trade)) checked.add(side.orderHash);
            at += batch.length;
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
