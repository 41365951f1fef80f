/**
 * Wire shapes of the account routes (login, orders, fees, onboarding): the protocol package's
 * static types, under the names the SDK has always used.
 */
import type { OrderStatus } from '@dex/protocol';

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
  type SignedOrder,
  type WireOrder,
} from '@dex/protocol';

/** Statuses of an order still on its book. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['ACTIVE', 'PARTIALLY_FILLED'];

/** Statuses after which nothing more happens to an order. */
export const TERMINAL_STATUSES: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELED', 'EXPIRED', 'REJECTED']);
