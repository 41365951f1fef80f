/**
 * Wire shapes of the account routes (login, orders, fees, onboarding): the protocol package's
 * static types, under the names the SDK has always used.
 */
import type { BuiltOrder, OrderStatus, SignedOrder as ProtocolSignedOrder, WireOrder } from '@dex/protocol';

export {
  type BuiltOrder,
  type CancelResult,
  type CancelSkipReason,
  type FeeRates,
  type FeeSide,
  type HistoryEvent,
  type HistoryEventType,
  type OcoLink,
  type OnboardingStatus,
  type OnboardingStep,
  ORDER_STATUSES,
  type OrderFill,
  type OrderHistory,
  type OrderListItem,
  type OrderRequest,
  type OrderSide,
  type OrderStatus,
  type OrdersPage,
  type OrderType,
  type RequestFlag,
  type SavedOrder,
  type SaveOrdersResult,
  type WireOrder,
} from '@dex/protocol';

/**
 * The unsigned `meta` of an order sent back to `POST /orders/save`, as `/orders/build` returned it
 * (all or part of it). The server ignores all of it except `isAMMEnabled`: the opt-in to the book's
 * pool, which travels only there. An order saved without it never meets the pool.
 */
export type SaveItemMeta = Partial<BuiltOrder['meta']>;

/**
 * One item of `POST /orders/save`: the order as built in wire form, with the unsigned
 * {@link SaveItemMeta} that carries the pool opt-in (only `{ isAMMEnabled: true }` is needed).
 */
export type SignedOrder = Omit<ProtocolSignedOrder, 'order'> & {
  readonly order: WireOrder & { readonly meta?: SaveItemMeta };
};

/** Statuses of an order still on its book. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['ACTIVE', 'PARTIALLY_FILLED'];

/** Statuses after which nothing more happens to an order. */
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);
