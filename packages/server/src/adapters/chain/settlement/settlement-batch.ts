import { PartialFillLimitOrderReactor } from '@dex/contracts';
import type { Hex, PartialFillLimitOrder } from '@dex/core';
import { encodeFunctionData } from 'viem';
import { makerCharge } from '../../../domain/markets/default-fees.js';
import { decodeSignedOrder } from '../../../domain/orders/stored-signed-order.js';
import type { FeeRates } from '../../../ports/fee-rates.js';
import type { SettlementOrder, UnsettledTrade } from '../../../ports/store/settlement-ports.js';

/**
 * The fee rates (pips) the maker's and the taker's accounts pay on the trade's book: a negative maker
 * fee is a rebate, at most `capFractionPips` of the taker's fee (the maker account's cap).
 */
export type TradeFeeRates = FeeRates;

export interface SettleOrderArg {
  readonly order: PartialFillLimitOrder;
  readonly signature: Hex;
}

export interface SettleFillArg {
  readonly fillId: bigint;
  readonly maker: number;
  readonly taker: number;
  readonly makerFeePips: number;
  readonly takerFeePips: number;
  /** A maker's rebate in pips of what it pays, out of the taker's fee (0: none; then a maker fee may apply). */
  readonly makerRebatePips: number;
  /** The most of the taker's fee a rebate may take, in pips of that fee. */
  readonly rebateCapPips: number;
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
}

/** A taker's swap with its book's pool: it pays `amountIn` into the pair and gets `amountOut`. */
export interface SettlePoolFillArg {
  readonly fillId: bigint;
  readonly taker: number;
  readonly takerFeePips: number;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

/**
 * The arguments of one `settle` call, and which trade each fill is: `trades` lists the fills' trades
 * and then the pool fills' trades, the order of the outcomes `settle` answers.
 */
export interface SettlementBatch {
  readonly orders: SettleOrderArg[];
  readonly fills: SettleFillArg[];
  readonly poolFills: SettlePoolFillArg[];
  readonly trades: UnsettledTrade[];
}

/** A batch with its `settle` calldata: simulated, then sent as the very same bytes. */
export interface EncodedBatch extends SettlementBatch {
  readonly calldata: Hex;
}

export function encodeBatch(batch: SettlementBatch): EncodedBatch {
  const calldata = encodeFunctionData({
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'settle',
    args: [batch.orders, batch.fills, batch.poolFills],
  });
  return { ...batch, calldata };
}

/**
 * What each side of a trade pays: the maker pays its input token, which is the base when the taker
 * buys and the quote when the taker sells; the taker pays the other. A pool pays what a maker would.
 */
export function fillAmounts(trade: UnsettledTrade): { makerAmount: bigint; takerAmount: bigint } {
  return trade.direction === 'buy'
    ? { makerAmount: trade.baseAmount, takerAmount: trade.quoteAmount }
    : { makerAmount: trade.quoteAmount, takerAmount: trade.baseAmount };
}

/**
 * Builds a `settle` call: each order once (by hash), one fill per trade (a pool fill for a trade
 * without a maker) with the trade id as fill id, and each side's fee at its account's rate but never
 * above the cap its order signed. Pool fills keep the engine's order: each was priced on the
 * reserves the one before left.
 */
export function settlementBatch(
  trades: readonly UnsettledTrade[],
  ratesOf: (trade: UnsettledTrade) => TradeFeeRates,
): SettlementBatch {
  const { orders, place } = orderList<string>();
  const index = (side: SettlementOrder): number =>
    place(side.orderHash, () => ({ order: decodeSignedOrder(side.signedOrder), signature: side.signature as Hex }));
  const takerFee = (trade: UnsettledTrade, taker: number): number =>
    Math.min(ratesOf(trade).takerFeePips, (orders[taker] as SettleOrderArg).order.maxTakerFeePips);
  const fills: SettleFillArg[] = [];
  const poolFills: SettlePoolFillArg[] = [];
  const booked: UnsettledTrade[] = [];
  const swapped: UnsettledTrade[] = [];
  for (const trade of trades) {
    const taker = index(trade.taker);
    const { makerAmount, takerAmount } = fillAmounts(trade);
    if (trade.maker === null) {
      const fill = { fillId: BigInt(trade.tradeId), taker, takerFeePips: takerFee(trade, taker) };
      poolFills.push({ ...fill, amountIn: takerAmount, amountOut: makerAmount });
      swapped.push(trade);
      continue;
    }
    const maker = index(trade.maker);
    const { makerFeePips, capFractionPips } = ratesOf(trade);
    const { feePips, rebatePips } = makerCharge(makerFeePips);
    fills.push({
      fillId: BigInt(trade.tradeId),
      maker,
      taker,
      makerFeePips: Math.min(feePips, (orders[maker] as SettleOrderArg).order.maxMakerFeePips),
      takerFeePips: takerFee(trade, taker),
      // A rebate needs no signed consent: it only lowers what the maker pays, out of the taker's fee.
      makerRebatePips: rebatePips,
      rebateCapPips: rebatePips === 0 ? 0 : capFractionPips,
      makerAmount,
      takerAmount,
    });
    booked.push(trade);
  }
  return { orders, fills, poolFills, trades: [...booked, ...swapped] };
}

/** A batch's orders, each once: `place` answers an order's position, adding it the first time its key is seen. */
function orderList<K>(): { orders: SettleOrderArg[]; place(key: K, make: () => SettleOrderArg): number } {
  const orders: SettleOrderArg[] = [];
  const positions = new Map<K, number>();
  return {
    orders,
    place(key, make) {
      let position = positions.get(key);
      if (position === undefined) {
        position = orders.push(make()) - 1;
        positions.set(key, position);
      }
      return position;
    },
  };
}

/** The batch without the trades at positions `drop` (of `trades`), and without orders no remaining fill uses. */
export function withoutFills(batch: SettlementBatch, drop: ReadonlySet<number>): SettlementBatch {
  const { orders, place } = orderList<number>();
  const reindex = (old: number): number => place(old, () => batch.orders[old] as SettleOrderArg);
  const fills: SettleFillArg[] = [];
  const poolFills: SettlePoolFillArg[] = [];
  const booked: UnsettledTrade[] = [];
  const swapped: UnsettledTrade[] = [];
  batch.fills.forEach((fill, position) => {
    if (drop.has(position)) return;
    fills.push({ ...fill, maker: reindex(fill.maker), taker: reindex(fill.taker) });
    booked.push(batch.trades[position] as UnsettledTrade);
  });
  batch.poolFills.forEach((fill, index) => {
    const position = batch.fills.length + index;
    if (drop.has(position)) return;
    poolFills.push({ ...fill, taker: reindex(fill.taker) });
    swapped.push(batch.trades[position] as UnsettledTrade);
  });
  return { orders, fills, poolFills, trades: [...booked, ...swapped] };
}
