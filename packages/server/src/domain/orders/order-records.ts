import type { SelfTradePrevention } from '@dex/core';
import type { NewTrade, TakerDirection } from './trade-records.js';

/** Orders, their history and what one engine turn changes: the desk's records, which the store keeps. */

export type OrderType = 'LIMIT' | 'MARKET';

export type OrderState = 'OPEN' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

/** `FILL_REVERTED` gives back the quantity of a fill whose settlement the reactor refused. */
export type OrderEventType = 'CREATED' | 'PARTIAL_FILL' | 'FILLED' | 'FILL_REVERTED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export type FillRole = 'maker' | 'taker';

/** The part of an order that changes as it trades. */
export interface OrderProgress {
  readonly status: OrderState;
  /** Why it left the book (cancel, expiry or rejection reason), else null. */
  readonly reason: string | null;
  readonly filledSteps: number;
  /** Raw input token units spent so far (before fees). */
  readonly filledInput: bigint;
  /** Raw output token units received so far (before fees). */
  readonly filledOutput: bigint;
  readonly updatedAt: number;
}

export interface OrderRecord extends OrderProgress {
  readonly id: number;
  /** EIP-712 digest of the signed order, 0x-prefixed lower-case hex: the idempotency key. */
  readonly orderHash: string;
  /** The JWT subject that saved it: `0.0.X` or a lower-case 0x address. */
  readonly account: string;
  readonly bookId: number;
  readonly type: OrderType;
  readonly side: TakerDirection;
  readonly priceTicks: bigint;
  readonly quantitySteps: number;
  readonly nonce: bigint;
  /** Unix seconds. */
  readonly deadline: number;
  readonly ocoOrderId: number | null;
  /** Whether the order opted in to trade with the book's pool (only on a book that routes to one). */
  readonly useAmm: boolean;
  /** What matching does when it meets a resting order of the same account (sent with the save; default EXPIRE_MAKER). */
  readonly selfTradePrevention: SelfTradePrevention;
  /** The signed order as JSON text, exactly as it was verified (wire form). */
  readonly signedOrder: string;
  /** 0x-prefixed signature with its mode byte. */
  readonly signature: string;
  readonly createdAt: number;
}

export interface FillDetail {
  readonly tradeId: number;
  readonly price: string;
  readonly baseAmount: bigint;
  readonly quoteAmount: bigint;
  readonly role: FillRole;
}

export interface OrderEventRecord {
  readonly id: number;
  /** Counts the order's events from 1 (CREATED is 1), as the live user stream's `sequence`. */
  readonly sequence: number;
  readonly orderId: number;
  readonly type: OrderEventType;
  readonly timestamp: number;
  readonly txHash: string | null;
  readonly reason: string | null;
  readonly fill: FillDetail | null;
}

/** A fill of the turn that writes it, naming its trade by the trade's index in that turn. */
export interface TurnFill {
  readonly tradeIndex: number;
  readonly role: FillRole;
}

/**
 * A history event to write: a fill refers to a trade of the same turn by its index; a reverted
 * fill names its stored trade.
 */
export interface NewOrderEvent {
  readonly orderId: number;
  readonly account: string;
  readonly type: OrderEventType;
  readonly timestamp: number;
  readonly reason: string | null;
  readonly fill: TurnFill | FillDetail | null;
  /** The transaction that made the event final (a confirmed cancellation). */
  readonly txHash?: string;
}

/** Everything one engine turn changed. New orders carry their state as of the end of the turn. */
export interface TurnWrite {
  readonly newOrders: readonly OrderRecord[];
  readonly progress: ReadonlyMap<number, OrderProgress>;
  readonly trades: readonly NewTrade[];
  readonly events: readonly NewOrderEvent[];
  /** Depth update id of each book the turn touched. */
  readonly lastUpdateIds: ReadonlyMap<number, number>;
  /** Nonce floors raised by the turn (cancel/all), by account. */
  readonly nonceFloors: ReadonlyMap<string, bigint>;
  /** Trades the reactor will not settle, undone by this turn. */
  readonly settlementFailures: readonly SettlementFailure[];
  /** Cancellations asked for in this turn, to be confirmed by the reactor. */
  readonly cancellations: readonly CancellationRequest[];
  /** Cancellations this turn made final. */
  readonly finalizedCancellations: readonly { readonly orderId: number; readonly time: number }[];
}

export interface CancellationRequest {
  readonly orderId: number;
  readonly reason: string;
  /** Unix ms. */
  readonly time: number;
}

export interface SettlementFailure {
  readonly tradeId: number;
  readonly reason: string;
  /** Unix ms. */
  readonly time: number;
}

/** Ids the store gave to one turn's rows, in the turn's order: its history events and its trades. */
export interface StoredTurnIds {
  /** Each event's id and its place among its order's events (from 1), in the turn's order. */
  readonly events: readonly StoredEvent[];
  readonly tradeIds: readonly number[];
}

export interface StoredEvent {
  readonly id: number;
  readonly sequence: number;
}
