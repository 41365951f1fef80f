import type { OrderbookItem } from '@dex/sdk';
import type { Account } from '../account/account-store.js';
import { AccountOrders } from './account-orders.js';
import { OrderForm } from './order-form.js';

/** A logged-in account's order form and its orders on this book: loaded by the market page only once logged in. */
export function TradingPanels({ account, book }: { readonly account: Account; readonly book: OrderbookItem }) {
  return (
    <>
      <section class="panel panel-trade">
        <OrderForm account={account} book={book} />
      </section>
      <AccountOrders account={account} orderbookId={String(book.id)} />
    </>
  );
}
