import type { PoolReserves } from '../amm/pool-leg.js';

/** 0 = buy (bid), 1 = sell (ask); numbers rather than strings keep the matching loop monomorphic. */
export type Side = 0 | 1;
export const BUY: Side = 0;
export const SELL: Side = 1;

/** GTC rests its remainder on the book; IOC cancels it (market orders are IOC). */
export type TimeInForce = 'GTC' | 'IOC';

/** Why the engine refused an order outright; a rejected order never touches the book. */
export type RejectReason =
  | 'DUPLICATE_ID'
  | 'INVALID_ORDER'
  | 'INVALID_PRICE'
  | 'INVALID_QUANTITY'
  | 'MARKET_HALTED'
  | 'WOULD_TAKE';

/**
 * Why an order left the book before it filled. The engine itself uses IMMEDIATE_OR_CANCEL,
 * TAKER_ONCE, LEVEL_FULL and SELF_TRADE; the others arrive with a cancel command from the service.
 */
export type CancelReason =
  | 'USER'
  | 'OCO'
  | 'EXPIRED'
  | 'NONCE_FLOOR'
  | 'OPERATOR'
  | 'INSUFFICIENT_FUNDS'
  | 'RECIPIENT_REFUSED'
  | 'SETTLEMENT_FAILED'
  | 'IMMEDIATE_OR_CANCEL'
  | 'TAKER_ONCE'
  | 'LEVEL_FULL'
  | 'CANCEL_AFTER'
  | 'DISCONNECT'
  | 'SELF_TRADE';

/**
 * What happens when an order would trade with a resting order of its own owner, in Binance's
 * words: EXPIRE_MAKER cancels the resting order and matching goes on, EXPIRE_TAKER cancels what is
 * left of the incoming order, EXPIRE_BOTH both. The incoming order's mode decides.
 */
export type SelfTradePrevention = 'EXPIRE_MAKER' | 'EXPIRE_TAKER' | 'EXPIRE_BOTH';
export const SELF_TRADE_PREVENTIONS: readonly SelfTradePrevention[] = ['EXPIRE_MAKER', 'EXPIRE_TAKER', 'EXPIRE_BOTH'];

export type OrderStatus = 'OPEN' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'REJECTED';

/**
 * A new order in grid units: price in ticks, quantity in size steps. Ids and time come from the
 * caller so that a replay of the same commands gives the same book.
 */
export interface PlaceOrder {
  readonly id: number;
  readonly side: Side;
  /** Limit price in ticks; an IOC order may use 0 (sell at any price) or MAX_PRICE_TICKS (buy at any price). */
  readonly price: bigint;
  readonly quantity: number;
  readonly timeInForce: TimeInForce;
  /** Never takes liquidity: an order that would cross is rejected. */
  readonly makerOnly: boolean;
  /** Takes at most one fill; see MatchingEngine for what happens to the remainder. */
  readonly takerOnce: boolean;
  /**
   * Opts in to the book's liquidity pool: the engine then takes from the pool wherever its price
   * beats the book's next level (takerOnce orders never do, as they take a single fill).
   */
  readonly useAmm?: boolean;
  /** Who the order belongs to; orders of one owner never trade with each other. None: no check. */
  readonly owner?: string;
  /** Default EXPIRE_MAKER. */
  readonly selfTradePrevention?: SelfTradePrevention;
  readonly time: number;
}

export type EngineCommand =
  | ({ readonly type: 'place' } & PlaceOrder)
  | { readonly type: 'cancel'; readonly id: number; readonly reason: CancelReason; readonly time: number }
  | { readonly type: 'replenish'; readonly id: number; readonly quantity: number; readonly time: number }
  | { readonly type: 'pool'; readonly reserves: PoolReserves | undefined; readonly time: number }
  | { readonly type: 'halt'; readonly time: number }
  | { readonly type: 'resume'; readonly time: number };
