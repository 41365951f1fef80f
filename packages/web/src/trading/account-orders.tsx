import { cancelAllOrders, cancelOrders, getOpenOrders, type OrderListItem } from '@dex/sdk';
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Account } from '../account/account-store.js';
import { ErrorNotice } from '../errors/error-notice.js';
import { cancelAllFloor } from './nonce-floor.js';
import { OrderFills } from './order-fills.js';
import { shownStatus, statusLabel } from './order-status.js';
import { useAccountOrders } from './use-account-orders.js';

interface OrderRowProps {
  readonly order: OrderListItem;
  readonly cancelRequested: boolean;
  readonly testId: 'open-order' | 'history-order';
  readonly onCancel?: (() => void) | undefined;
  /** Ended orders show their trades. */
  readonly account?: Account | undefined;
}

function OrderRow({ order, cancelRequested, testId, onCancel, account }: OrderRowProps) {
  const status = shownStatus(order.status, cancelRequested);
  return (
    <tr data-testid={testId} data-order-id={order.id} data-status={status}>
      <td class={order.direction === 'buy' ? 'change-up' : 'change-down'}>
        {order.type === 'LIMIT' ? 'Limit' : 'Market'} {order.direction}
      </td>
      <td class="num">{order.price}</td>
      <td class="num">
        {order.filledAmount} / {order.amount}
      </td>
      <td>{statusLabel(status)}</td>
      {account === undefined ? null : (
        <td>
          <OrderFills account={account} orderId={order.id} />
        </td>
      )}
      {onCancel === undefined ? null : (
        <td>
          <button type="button" data-testid="cancel-order" disabled={status === 'cancel-pending'} onClick={onCancel}>
            Cancel<span class="visually-hidden"> order {order.id}</span>
          </button>
        </td>
      )}
    </tr>
  );
}

interface OrderTableProps {
  readonly caption: string;
  readonly testId: string;
  /** The last column: cancel buttons of open orders, or the trades of ended ones. */
  readonly lastColumn: 'Action' | 'Trades';
  readonly children: ComponentChildren;
}

function OrderTable(props: OrderTableProps) {
  return (
    <div class="table-scroll">
      <table class="orders" data-testid={props.testId}>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">Order</th>
            <th scope="col">Price</th>
            <th scope="col">Filled / size</th>
            <th scope="col">Status</th>
            <th scope="col">{props.lastColumn}</th>
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}

/** Cancellations: one order or all of them, the requested ids kept to show them pending until the chain confirms. */
function useCancels(account: Account) {
  const [requested, setRequested] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(undefined);
  const run = async (action: () => Promise<{ accepted: readonly number[] }>) => {
    setError(undefined);
    try {
      const { accepted } = await action();
      setRequested((previous) => new Set([...previous, ...accepted.map(String)]));
    } catch (failure) {
      setError(failure);
    }
  };
  const cancel = (orderId: number) => run(() => cancelOrders(account.client, { orderIds: [orderId] }));
  const cancelAll = () =>
    run(async () => cancelAllOrders(account.client, { nonceFloor: cancelAllFloor(await getOpenOrders(account.client)) }));
  return { requested, error, cancel, cancelAll };
}

/** The account's open orders on this book, live, with cancels; and its recently ended ones. */
export function AccountOrders({ account, orderbookId }: { readonly account: Account; readonly orderbookId: string }) {
  const orders = useAccountOrders(account, orderbookId);
  const cancels = useCancels(account);
  return (
    <section class="panel panel-orders" aria-labelledby="orders-title" data-stream={orders.stream}>
      <h2 id="orders-title">Your orders</h2>
      <ErrorNotice error={orders.error} context="Following your orders" />
      <ErrorNotice error={cancels.error} context="Cancelling" />
      {orders.open === undefined ? (
        <p class="loading">Loading your orders…</p>
      ) : (
        <>
          <OrderTable caption="Open orders" testId="open-orders" lastColumn="Action">
            {orders.open.map((order) => (
              <OrderRow
                key={order.id}
                order={order}
                testId="open-order"
                cancelRequested={cancels.requested.has(String(order.id))}
                onCancel={() => void cancels.cancel(order.id)}
              />
            ))}
          </OrderTable>
          {orders.open.length === 0 ? <p class="muted">No open orders on this market.</p> : null}
          <button type="button" data-testid="cancel-all" onClick={() => void cancels.cancelAll()}>
            Cancel all (every market)
          </button>
        </>
      )}
      <h3>Recently ended</h3>
      <OrderTable caption="Recently ended orders" testId="order-history" lastColumn="Trades">
        {(orders.ended ?? []).map((order) => (
          <OrderRow key={order.id} order={order} testId="history-order" cancelRequested={false} account={account} />
        ))}
      </OrderTable>
    </section>
  );
}
