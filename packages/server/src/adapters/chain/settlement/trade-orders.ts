import type { SettlementOrder, UnsettledTrade } from '../../../ports/store/settlement-ports.js';

/** The orders of a trade: its maker's (unless the pool was the maker) and its taker's. */
export function ordersOf(trade: UnsettledTrade): SettlementOrder[] {
  return trade.maker === null ? [trade.taker] : [trade.maker, trade.taker];
}
