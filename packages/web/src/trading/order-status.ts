import type { OrderStatus } from '@dex/sdk';

/** An order's state as the page names it: the API's status, or a cancellation the chain has yet to confirm. */
export type ShownStatus = 'open' | 'partially-filled' | 'filled' | 'cancel-pending' | 'cancelled' | 'expired' | 'rejected';

const SHOWN: Readonly<Record<OrderStatus, ShownStatus>> = {
  ACTIVE: 'open',
  PARTIALLY_FILLED: 'partially-filled',
  FILLED: 'filled',
  CANCELED: 'cancelled',
  EXPIRED: 'expired',
  REJECTED: 'rejected',
};

const LABELS: Readonly<Record<ShownStatus, string>> = {
  open: 'Open',
  'partially-filled': 'Partially filled',
  filled: 'Filled',
  'cancel-pending': 'Cancel pending',
  cancelled: 'Cancelled',
  expired: 'Expired',
  rejected: 'Rejected',
};

/**
 * The status to show. A cancellation the server accepted takes the order off its book at once, but
 * it stays open (`ACTIVE`, `PARTIALLY_FILLED`) until `ORDER_CANCELED` says the chain agreed.
 */
export function shownStatus(status: OrderStatus, cancelRequested: boolean): ShownStatus {
  const shown = SHOWN[status];
  return cancelRequested && (shown === 'open' || shown === 'partially-filled') ? 'cancel-pending' : shown;
}

export const statusLabel = (status: ShownStatus): string => LABELS[status];
