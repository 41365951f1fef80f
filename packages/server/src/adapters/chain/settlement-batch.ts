import { PartialFillLimitOrderReactor } from '@dex/contracts';
import type { Hex, PartialFillLimitOrder } from '@dex/core';
import { encodeFunctionData } from 'viem';
import { decodeSignedOrder } from '../../domain/orders/stored-signed-order.js';
import type { SettlementOrder, UnsettledTrade } from '../../ports/store/settlement-ports.js';

/** The fee rates (pips) the maker's and the taker's accounts pay on the trade's book. */
export interface TradeFeeRates {
  readonly makerFeePips: number;
  readonly takerFeePips: number;
}

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
  readonly makerAmount: bigint;
  readonly takerAmount: bigint;
}

/** The arguments of one `settle` call, and which trade each fill is. */
export interface SettlementBatch {
  readonly orders: SettleOrderArg[];
  readonly fills: SettleFillArg[];
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
    args: [batch.orders, batch.fills, []],
  });
  return { ...batch, calldata };
}

/**
 * What each side of a trade pays: the maker pays its input token, which is the base when the taker
 * buys and the quote when the taker sells; the taker pays the other.
 */
export function fillAmounts(trade: UnsettledTrade): { makerAmount: bigint; takerAmount: bigint } {
  return trade.direction === 'buy'
    ? { makerAmount: trade.baseAmount, takerAmount: trade.quoteAmount }
    : { makerAmount: trade.quoteAmount, takerAmount: trade.baseAmount };
}

/**
 * Builds a `settle` call: each order once (by hash), one fill per trade with the trade id as fill
 * id, and each side's fee at its account's rate but never above the cap its order signed.
 */
export function settlementBatch(
  trades: readonly UnsettledTrade[],
  ratesOf: (trade: UnsettledTrade) => TradeFeeRates,
): SettlementBatch {
  const { orders, place } = orderList<string>();
  const index = (side: SettlementOrder): number =>
    place(side.orderHash, () => ({ order: decodeSignedOrder(side.signedOrder), signature: side.signature as Hex }));
  const fills = trades.map((trade) => {
    const maker = index(trade.maker);
    const taker = index(trade.taker);
    const rates = ratesOf(trade);
    return {
      fillId: BigInt(trade.tradeId),
      maker,
      taker,
      makerFeePips: Math.min(rates.makerFeePips, (orders[maker] as SettleOrderArg).order.maxMakerFeePips),
      takerFeePips: Math.min(rates.takerFeePips, (orders[taker] as SettleOrderArg).order.maxTakerFeePips),
      ...fillAmounts(trade),
    };
  });
  return { orders, fills, trades: [...trades] };
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

/** The batch without the fills at positions `drop`, and without orders no remaining fill uses. */
export function withoutFills(batch: SettlementBatch, drop: ReadonlySet<number>): SettlementBatch {
  const { orders, place } = orderList<number>();
  const reindex = (old: number): number => place(old, () => batch.orders[old] as SettleOrderArg);
  const fills: SettleFillArg[] = [];
  const trades: UnsettledTrade[] = [];
  batch.fills.forEach((fill, position) => {
    if (drop.has(position)) return;
    fills.push({ ...fill, maker: reindex(fill.maker), taker: reindex(fill.taker) });
    trades.push(batch.trades[position] as UnsettledTrade);
  });
  return { orders, fills, trades };
}
