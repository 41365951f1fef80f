import { ORDER_STATUSES } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { shownStatus, statusLabel } from './order-status.js';

describe('order status labels', () => {
  it('names every API status', () => {
    expect(ORDER_STATUSES.map((status) => statusLabel(shownStatus(status, false)))).toEqual([
      'Open',
      'Partially filled',
      'Filled',
      'Cancelled',
      'Expired',
      'Rejected',
    ]);
  });

  it('shows an open order whose cancellation is requested as cancel pending, until it ends', () => {
    expect(shownStatus('ACTIVE', true)).toBe('cancel-pending');
    expect(shownStatus('PARTIALLY_FILLED', true)).toBe('cancel-pending');
    expect(statusLabel('cancel-pending')).toBe('Cancel pending');
    expect(shownStatus('CANCELED', true)).toBe('cancelled');
    expect(shownStatus('FILLED', true)).toBe('filled');
  });
});
