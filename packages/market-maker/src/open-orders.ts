import { type Client, cancelOrders, getOpenOrders, MAX_CANCELS_PER_REQUEST } from '@dex/sdk';

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
    (await getOpenOrders(client)).map((order) => order.id),
  );
}
