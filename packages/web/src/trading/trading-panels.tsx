import type { OrderbookItem } from '@dex/sdk';
import type { Account } from '../account/account-store.js';
import { AccountOrders } from './account-orders.js';
import { OnboardingPanel } from './onboarding-panel.js';
import { OrderForm } from './order-form.js';

/** A logged-in account's onboarding, order form and orders on this book: loaded by the market page only once logged in. */
export function TradingPanels({ account, book }: { readonly account: Account; readonly book: OrderbookItem }) {
  return (
    <>
      <section class="panel panel-trade">
        <OnboardingPanel account={account} book={book} />
        <OrderForm account={account} book={book} />
      </section>
      <AccountOrders account={account} orderbookId={String(book.id)} />
    </>
  );
}
