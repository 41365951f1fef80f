/**
 * Wire shapes of the account routes (login, orders, fees, onboarding). Raw token amounts, nonces
 * and deadlines of signed orders are integer strings; display amounts are decimal strings.
 */
import type { WireOrder } from '@dex/core';

export type { WireOrder } from '@dex/core';

export type OrderType = 'LIMIT' | 'MARKET';
export type OrderSide = 'buy' | 'sell';
/**
 * Every status an order can have, in the order of its life, in the API's words: `ACTIVE` rests on
 * its book without fills (servers before the live-compatible shapes said `OPEN`; the SDK reads
 * that as `ACTIVE`).
 */
export const ORDER_STATUSES = ['ACTIVE', 'PARTIALLY_FILLED', 'FILLED', 'CANCELED', 'EXPIRED', 'REJECTED'] as const;

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Statuses of an order still on its book. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['ACTIVE', 'PARTIALLY_FILLED'];

/** A flag of an order request: a boolean, or the 0/1 that `GET /books` uses for its flags. */
export type RequestFlag = boolean | 0 | 1;

/** Statuses after which nothing more happens to an order. */
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);

/** One entry of `POST /orders/build`. A sell spends the base token and receives the quote token; a buy the reverse. */
export interface OrderRequest {
  readonly orderbookId: number | string;
  readonly type: OrderType;
  /** EVM address of the token spent. */
  readonly inputToken: string;
  /** Raw units spent, an integer string. */
  readonly inputAmount: string;
  /** EVM address of the token received. */
  readonly outputToken: string;
  /** Least raw units received (`"1"` for a MARKET order), an integer string. */
  readonly outputAmount: string;
  /** LIMIT only: unix seconds; the server clamps it into [now + 60 s, now + 90 days]. */
  readonly deadline?: string | number | undefined;
  /** Who receives the output; the swapper when absent. */
  readonly recipient?: string | undefined;
  /** Rest only: refused (`WOULD_TAKE`) if it would trade at once. */
  readonly makerOnly?: RequestFlag | undefined;
  /** Take at most one fill. */
  readonly takerOnce?: RequestFlag | undefined;
  readonly isAMMEnabled?: RequestFlag | undefined;
}

/** An order from `POST /orders/build`: the typed data to sign, and what the server says of it. */
export interface BuiltOrder extends WireOrder {
  readonly meta: {
    /** The book's id as a decimal string. */
    readonly orderbookId: string;
    readonly type: OrderType;
    readonly side: OrderSide;
    /** Whether AMM liquidity may settle part of the order. */
    readonly isAMMEnabled: boolean;
    /** The EIP-712 digest by the server's reckoning; the SDK computes its own and compares. */
    readonly orderHash: string;
  };
}

/** One item of `POST /orders/save`. */
export interface SignedOrder {
  /** The order as built; its `meta` may come along (the server ignores it). */
  readonly order: WireOrder;
  /** Mode byte `0x00`, then the signature. */
  readonly signature: string;
  readonly orderbookId: number | string;
  readonly type: OrderType;
}

/** An OCO pair of `POST /orders/save`, by item index. */
export interface OcoLink {
  readonly a: number;
  readonly b: number;
}

/** An order as `POST /orders/save` answers it. */
export interface SavedOrder extends WireOrder {
  readonly meta: {
    /** The order's id as a decimal string (what {@link cancelOrders} and histories take). */
    readonly id: string;
    readonly orderbookId: string;
    readonly type: OrderType;
    readonly status: OrderStatus;
    readonly reason: string | null;
    readonly orderHash: string;
    readonly signature?: string | undefined;
    readonly isAMMEnabled?: boolean | undefined;
    /** Raw units of the input token spent so far. */
    readonly filledAmount: string;
    /** ISO-8601, UTC. */
    readonly createdAt: string;
    readonly updatedAt?: string | undefined;
  };
}

export interface SaveOrdersResult {
  readonly orders: SavedOrder[];
  /** The OCO links by order id. */
  readonly oco?: { readonly links: { readonly a: number; readonly b: number }[] } | undefined;
}

export type CancelSkipReason = 'NOT_FOUND' | 'NOT_OPEN';

/** `POST /cancel` and `POST /cancel/all`: the orders are off their books; finality is `ORDER_CANCELED`. */
export interface CancelResult {
  readonly status: 'PENDING';
  readonly message?: string | undefined;
  readonly accepted: number[];
  /** Ids that were not cancelled. */
  readonly skipped: number[];
  /** Why each skipped id was not cancelled (absent from servers that do not say). */
  readonly skippedDetails: { readonly orderId: number; readonly reason: CancelSkipReason }[];
  /** `POST /cancel/all`: the nonce floor the server applied. */
  readonly nonceFloor?: string | undefined;
}

/** One order of `GET /orders`; amounts are display decimals of the book's tokens. */
export interface OrderListItem {
  readonly id: number;
  readonly orderbookId: string;
  readonly orderHash: string;
  /** ISO-8601, UTC. */
  readonly createdAt: string;
  readonly updatedAt: string;
  /** `BASE/QUOTE` symbols. */
  readonly pair: string;
  readonly type: OrderType;
  readonly direction: OrderSide;
  /** LIMIT: the limit price; MARKET: the average fill price. */
  readonly price: string;
  /** Base size. */
  readonly amount: string;
  /** Base filled. */
  readonly filledAmount: string;
  /** Percent of the size filled, two decimals ("33.33"). */
  readonly percentFilled: string;
  readonly status: OrderStatus;
  readonly reason: string | null;
  /** Quote value. */
  readonly total: string;
  readonly nonce: string;
  /** Unix seconds, a decimal string. */
  readonly deadline: string;
  readonly ocoLinkedOrderId: number | null;
}

export interface OrdersPage {
  readonly orders: OrderListItem[];
  readonly total: number;
  readonly page: number;
  readonly limit: number;
  /** Id of the account's newest order event this listing reflects: stream events above it are news. */
  readonly lastUpdateId: number;
}

export type HistoryEventType = 'CREATED' | 'PARTIAL_FILL' | 'FILLED' | 'CANCELED' | 'EXPIRED' | 'REJECTED';

export interface OrderFill {
  readonly tradeId: number;
  readonly role: 'maker' | 'taker';
  /** Display price. */
  readonly price: string;
  /** Display base amount. */
  readonly amountBase: string;
  /** Raw base units. */
  readonly baseAmount: string;
  /** Raw quote units. */
  readonly quoteAmount: string;
}

export interface HistoryEvent {
  /** The event's id, a decimal string; increasing per account (the user stream's `eventId`). */
  readonly id: string;
  readonly type: HistoryEventType;
  /** Unix ms. */
  readonly timestamp: number;
  /** Settlement transaction of a fill, or the confirming one of a cancellation; null until there is one. */
  readonly txHash: string | null;
  readonly reason: string | null;
  readonly fill: OrderFill | null;
}

export interface OrderHistory {
  readonly orderId: number;
  readonly orderbookId: string;
  /** Oldest first. */
  readonly events: HistoryEvent[];
  /** Events of the order in all. */
  readonly total: number;
}

export type FeeSide = 'maker' | 'taker';

/** `GET /fees/:orderbookId`; rates in pips (1 pip = 0.0001 %). */
export interface FeeRates {
  readonly side: FeeSide;
  /** The market's 32-byte id, 0x-hex. */
  readonly marketId: string;
  readonly makerFeePips: number;
  readonly takerFeePips: number;
  /** Maker rebate cap as a fraction of taker fees, in pips; not a fee. */
  readonly capFractionPips: number;
}

export type OnboardingStep =
  | 'associateBaseToken'
  | 'associateQuoteToken'
  | 'approveBaseTokenPermit2'
  | 'approveQuoteTokenPermit2'
  | 'approveBaseTokenReactor'
  | 'approveQuoteTokenReactor';

export interface OnboardingStatus {
  readonly steps: Record<OnboardingStep, boolean>;
  readonly pendingSteps: OnboardingStep[];
  readonly completedSteps: OnboardingStep[];
  readonly isComplete: boolean;
}
