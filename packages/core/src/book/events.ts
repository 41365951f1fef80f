import type { CancelReason, OrderStatus, RejectReason, Side } from './types.js';

/** A trade between a resting maker and an incoming taker, at the maker's price. */
export interface FillEvent {
  readonly type: 'fill';
  readonly makerId: number;
  readonly takerId: number;
  readonly takerSide: Side;
  /** Price in ticks. */
  readonly price: number;
  /** Base quantity in size steps. */
  readonly quantity: number;
  readonly makerRemaining: number;
  readonly takerRemaining: number;
  readonly time: number;
}

/** The total resting quantity at one price changed; 0 means the level is gone. */
export interface DepthEvent {
  readonly type: 'depth';
  readonly side: Side;
  readonly price: number;
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
  readonly price: number;
  readonly filled: number;
  readonly remaining: number;
  readonly reason: CancelReason | RejectReason | null;
  readonly time: number;
}

export type EngineEvent = FillEvent | DepthEvent | OrderEvent;

export type EventSink = (event: EngineEvent) => void;
