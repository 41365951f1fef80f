import { type Client, cancelOrders, getOrders, MAX_CANCELS_PER_REQUEST, type OrderListItem } from '@dex/sdk';

/** Largest page of `GET /orders`. */
const PAGE = 500;

/**
 * The account's open and partly filled orders, every page. With a settlement chain an order whose
 * cancellation waits for the reactor still shows its last status here.
 */
export async function openOrders(client: Client): Promise<OrderListItem[]> {
  const orders: OrderListItem[] = [];
  for (let page = 1; ; page++) {
    const listing = await getOrders(client, { status: ['OPEN', 'PARTIALLY_FILLED'], page, limit: PAGE });
    orders.push(...listing.orders);
    if (listing.orders.length < PAGE || page * PAGE >= listing.total) return orders;
  }
}

/** Cancels orders by id, 500 to a request; returns the ids the server accepted. */
export async function cancelByIds(client: Client, ids: readonly number[]): Promise<number[]> {
  const accepted: number[] = [];
  for (let start = 0; start < ids.length; start += MAX_CANCELS_PER_REQUEST) {
    const result = await cancelOrders(client, { orderIds: ids.slice(start, start + MAX_CANCELS_PER_REQUEST) });
    accepted.push(...result.accepted);
  }
  return accepted;
}

/** Cancels every open order of the account: what a previous run left resting, or this run's at its stop. */
export async function cancelOpenOrders(client: Client): Promise<number[]> {
  return cancelByIds(
    client,
    (await openOrders(client)).map((order) => order.id),
  );
}
