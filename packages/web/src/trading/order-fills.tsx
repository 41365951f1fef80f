import { getOrderHistory, type HistoryEvent } from '@dex/sdk';
import { useEffect, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { describeError } from '../errors/describe-error.js';

type Fill = NonNullable<HistoryEvent['fill']>;

/**
 * The trades an ended order took part in, from its history (`GET /orders/:id/history`): read once,
 * since an ended order no longer changes. Each names the trade id the tape shows.
 */
export function OrderFills({ account, orderId }: { readonly account: Account; readonly orderId: number }) {
  const [fills, setFills] = useState<{ list?: Fill[]; error?: unknown }>({});
  useEffect(() => {
    let current = true;
    getOrderHistory(account.client, { orderId })
      .then((history) => {
        const list = history.events.flatMap((event) => (event.fill === null ? [] : [event.fill]));
        if (current) setFills({ list });
      })
      .catch((error: unknown) => current && setFills({ error }));
    return () => {
      current = false;
    };
  }, [account, orderId]);
  if (fills.error !== undefined) {
    const { message, code } = describeError(fills.error);
    return (
      <span class="notice" role="alert">
        History failed: {message} <code class="error-code">{code}</code>
      </span>
    );
  }
  if (fills.list === undefined) return <span class="muted">…</span>;
  if (fills.list.length === 0) return <span class="muted">No trades</span>;
  return (
    <span data-testid="order-fills" data-trade-ids={fills.list.map((fill) => fill.tradeId).join(' ')}>
      {fills.list.map((fill) => `#${fill.tradeId} ${fill.amountBase} @ ${fill.price}`).join(', ')}
    </span>
  );
}
