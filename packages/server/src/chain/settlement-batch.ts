import { type Hex, type PartialFillLimitOrder, parseWireOrder } from '@dex/core';
import type { SettlementOrder, UnsettledTrade } from '../store/settlement-ports.js';

/** A trade with the fee rates (pips) its two accounts pay, already within their signed caps. */
export interface PricedTrade {
  readonly trade: UnsettledTrade;
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

/**
 * What each side of a trade pays: the maker pays its input token, which is the base when the taker
 * buys and the quote when the taker sells; the taker pays the other.
 */
export function fillAmounts(trade: UnsettledTrade): { makerAmount: bigint; takerAmount: bigint } {
  return trade.direction === 'buy'
    ? { makerAmount: trade.baseAmount, takerAmount: trade.quoteAmount }
    : { makerAmount: trade.quoteAmount, takerAmount: trade.baseAmount };
}

/** The fee rate an order pays: the account's rate, never above what the order signed for. */
export function cappedFeePips(rate: number, signedCap: number): number {
  return Math.min(rate, signedCap);
}

/** Builds a `settle` call: each order once (by hash), one fill per trade with the trade id as fill id. */
export function settlementBatch(priced: readonly PricedTrade[]): SettlementBatch {
  const orders: SettleOrderArg[] = [];
  const indexOf = new Map<string, number>();
  const index = (side: SettlementOrder): number => {
    let position = indexOf.get(side.orderHash);
    if (position === undefined) {
      position = orders.push({ order: parseWireOrder(JSON.parse(side.signedOrder)), signature: side.signature as Hex }) - 1;
      indexOf.set(side.orderHash, position);
    }
    return position;
  };
  const fills = priced.map(({ trade, makerFeePips, takerFeePips }) => ({
    fillId: BigInt(trade.tradeId),
    maker: index(trade.maker),
    taker: index(trade.taker),
    makerFeePips,
    takerFeePips,
    ...fillAmounts(trade),
  }));
  return { orders, fills, trades: priced.map(({ trade }) => trade) };
}

/** The batch without the fills at `drop`, and without orders no remaining fill uses. */
export function withoutFills(batch: SettlementBatch, drop: ReadonlySet<number>): SettlementBatch {
  const kept = batch.trades.flatMap((_trade, position) => (drop.has(position) ? [] : [position]));
  const orders: SettleOrderArg[] = [];
  const remap = new Map<number, number>();
  const reindex = (old: number): number => {
    let position = remap.get(old);
    if (position === undefined) {
      position = orders.push(batch.orders[old] as SettleOrderArg) - 1;
      remap.set(old, position);
    }
    return position;
  };
  const fills = kept.map((position) => {
    const fill = batch.fills[position] as SettleFillArg;
    return { ...fill, maker: reindex(fill.maker), taker: reindex(fill.taker) };
  });
  return { orders, fills, trades: kept.map((position) => batch.trades[position] as UnsettledTrade) };
}
