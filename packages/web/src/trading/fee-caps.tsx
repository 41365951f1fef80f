import { DEFAULT_MAX_FEE_PIPS, type FeeRates, getFees, type OrderbookItem } from '@dex/sdk';
import { useEffect, useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { pipsAsPercent } from './fee-percent.js';

/**
 * The account's fees on the book (`GET /fees`: the operator's override, else the book's) and the
 * most any order may charge, which the SDK checks each built order against before signing it.
 */
export function FeeCaps({ account, book }: { readonly account: Account; readonly book: OrderbookItem }) {
  const [fees, setFees] = useState<{ rates?: FeeRates; error?: unknown }>({});
  const orderbookId = book.id;
  useEffect(() => {
    let current = true;
    getFees(account.client, { orderbookId, side: 'taker' })
      .then((rates) => current && setFees({ rates }))
      .catch((error: unknown) => current && setFees({ error }));
    return () => {
      current = false;
    };
  }, [account, orderbookId]);
  const rates = fees.rates ?? { makerFeePips: book.makerFeePips, takerFeePips: book.takerFeePips };
  return (
    <>
      <p class="muted fee-caps" data-testid="fee-caps">
        Fees: maker {pipsAsPercent(rates.makerFeePips)}, taker {pipsAsPercent(rates.takerFeePips)}
        {fees.rates === undefined ? ' (the book’s)' : ''}; an order may charge at most {pipsAsPercent(DEFAULT_MAX_FEE_PIPS)}.
      </p>
      <ErrorNotice error={fees.error} context="Loading your fees" />
    </>
  );
}
