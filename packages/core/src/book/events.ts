import type { PoolReserves } from '../amm/pool-leg.js';
import type { CancelReason, OrderStatus, RejectReason, Side } from './types.js';

/** A trade between a resting maker and an incoming taker, at the maker's price. */
export interface FillEvent {
  readonly type: 'fill';
  readonly makerId: number;
  readonly takerId: number;
  readonly takerSide: Side;
  /** Price in ticks. */
  readonly price: bigint;
  /** Base quantity in size steps. */
  readonly quantity: number;
  readonly makerRemaining: number;
  readonly takerRemaining: number;
  readonly time: number;
}

/**
 * A taker's swap with the book's liquidity pool: whole size steps of base against the exact quote
 * amount of the pair's formula, so its price is generally between ticks.
 */
export interface PoolFillEvent {
  readonly type: 'pool-fill';
  readonly takerId: number;
  readonly takerSide: Side;
  /** Base quantity in size steps. */
  readonly quantity: number;
  /** Base raw units the pool gives (taker buys) or receives (taker sells). */
  readonly base: bigint;
  /** Quote raw units the taker pays (buys) or receives (sells). */
  readonly quote: bigint;
  /** The pool's reserves after this swap. */
  readonly reserves: PoolReserves;
  readonly takerRemaining: number;
  readonly time: number;
}

/** The total resting quantity at one price changed; 0 means the level is gone. */
export interface DepthEvent {
  readonly type: 'depth';
  readonly side: Side;
  readonly price: bigint;
  readonly quantity: number;
  /** Consecutive per book, starting at 1. */
  readonly updateId: number;
  readonly time: number;
}

/** An order changed state. `filled` and `remaining` are in size steps. */
export interface OrderEvent {
  readonly type: 'order';
  readonly orderId: number;
  readonly status: OrderStatus;
  readonly side: Side;
  readonly price: bigint;
  readonly filled: number;
  readonly remaining: number;
  readonly reason: CancelReason | RejectReason | null;
  readonly time: number;
}

export type EngineEvent = FillEvent | PoolFillEvent | DepthEvent | OrderEvent;

export type EventSink = (event: EngineEvent) => void;
