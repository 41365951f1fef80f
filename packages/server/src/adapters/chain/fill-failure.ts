import type { Party, RejectReason } from '@dex/contracts';
import type { CancelReason } from '@dex/core';
import type { FailedFill } from '../../ports/settlement-desk.js';
import type { UnsettledTrade } from '../../ports/store/settlement-ports.js';

const CANCEL_REASONS: Partial<Record<RejectReason, CancelReason>> = {
  MakerTransfer: 'INSUFFICIENT_FUNDS',
  TakerTransfer: 'INSUFFICIENT_FUNDS',
  // The order's output recipient cannot receive the token (not associated, frozen, refused).
  MakerRefused: 'RECIPIENT_REFUSED',
  TakerRefused: 'RECIPIENT_REFUSED',
  Expired: 'EXPIRED',
  // Cancelled or voided on the reactor itself, by the swapper or for it.
  Cancelled: 'USER',
  NonceBelowFloor: 'NONCE_FLOOR',
};

/** What the desk does about a fill the reactor refused: whose order to cancel, and why. */
export function failedFill(trade: UnsettledTrade, outcome: { reason: RejectReason; party: Party }): FailedFill {
  return {
    tradeId: trade.tradeId,
    bookId: trade.bookId,
    makerOrderId: trade.maker?.orderId ?? null,
    takerOrderId: trade.taker.orderId,
    price: trade.price,
    baseAmount: trade.baseAmount,
    quoteAmount: trade.quoteAmount,
    culprit: outcome.party === 'Maker' ? 'maker' : outcome.party === 'Taker' ? 'taker' : null,
    reason: CANCEL_REASONS[outcome.reason] ?? 'SETTLEMENT_FAILED',
  };
}
