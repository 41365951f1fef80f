/**
 * The orders of bench:cancel: resting orders that never cross (so no fill is ever in flight and a
 * cancellation waits for nothing but the relay), and `POST /cancel` requests for them, each
 * answer's time taken on this machine's clock, the one the server's store uses.
 */
import type { Account } from './accounts.js';
import { type HttpClient, snippet } from './http-client.js';
import { MAX_BATCH, type Market } from './market.js';
import { type Batch, type BookPrices, signBatches } from './settlement-orders.js';

/**
 * 1.01000 and 0.99000: sellers rest asks, buyers bids, a whole percent either side of the middle, so
 * nothing in the run ever trades.
 */
export const CANCEL_PRICES: BookPrices = { askTicks: 101_000, bidTicks: 99_000 };

/** A resting order the benchmark will cancel. */
export interface RestingOrder {
  readonly id: number;
  readonly orderHash: string;
  readonly trader: Account;
}

/** A cancel as the client saw it: when it was sent and when its 202 came back (unix ms). */
export interface CancelSent {
  readonly order: RestingOrder;
  readonly sentAt: number;
  readonly answeredAt: number;
}

interface SaveAnswer {
  readonly orders: { meta: { id: string; status: string; orderHash: string } }[];
}

/**
 * Rests `count` orders spread round robin over the traders (both key kinds, both sides), built on
 * the server, signed here and saved; returns them in the order they were saved.
 */
export async function restOrders(
  client: HttpClient,
  market: Market,
  traders: readonly Account[],
  count: number,
): Promise<RestingOrder[]> {
  const perTrader = traders.map((_, index) => Math.floor(count / traders.length) + (index < count % traders.length ? 1 : 0));
  const batches: Batch[] = traders.flatMap((trader, index) => {
    const parts: Batch[] = [];
    for (let left = perTrader[index] ?? 0; left > 0; left -= MAX_BATCH) {
      parts.push({ trader, taker: false, size: Math.min(MAX_BATCH, left), prices: CANCEL_PRICES, amm: false, body: '' });
    }
    return parts;
  });
  await signBatches(client, market, batches);
  const rested: RestingOrder[][] = [];
  for (const batch of batches) {
    const reply = await client.send('POST', '/orders/save', batch.body, batch.trader.token);
    if (reply.status !== 200) throw new Error(`POST /orders/save answered ${reply.status}: ${snippet(reply.body)}`);
    const { orders } = JSON.parse(reply.body.toString('utf8')) as SaveAnswer;
    const notResting = orders.filter((order) => order.meta.status !== 'ACTIVE').length;
    if (orders.length !== batch.size || notResting > 0)
      throw new Error(`a save rested ${orders.length - notResting} of ${batch.size} orders: did one cross?`);
    rested.push(orders.map(({ meta }) => ({ id: Number(meta.id), orderHash: meta.orderHash, trader: batch.trader })));
  }
  // Interleaved by trader, so consecutive cancels come from different accounts and key kinds.
  const interleaved: RestingOrder[] = [];
  const byTrader = traders.map((trader) => rested.filter((orders) => orders[0]?.trader === trader).flat());
  for (let at = 0; interleaved.length < count; at++) {
    for (const orders of byTrader) {
      const order = orders[at];
      if (order !== undefined) interleaved.push(order);
    }
  }
  return interleaved;
}

/** One order's `POST /cancel`, which must answer 202 and accept it. */
async function cancelOne(client: HttpClient, order: RestingOrder): Promise<CancelSent> {
  const sentAt = Date.now();
  const reply = await client.send('POST', '/cancel', JSON.stringify({ orderIds: [String(order.id)] }), order.trader.token);
  const answeredAt = Date.now();
  if (reply.status !== 202) throw new Error(`POST /cancel answered ${reply.status}: ${snippet(reply.body)}`);
  const { accepted } = JSON.parse(reply.body.toString('utf8')) as { accepted: (number | string)[] };
  if (accepted.length !== 1 || Number(accepted[0]) !== order.id) throw new Error(`POST /cancel did not accept order ${order.id}`);
  return { order, sentAt, answeredAt };
}

/**
 * Cancels the orders one request each, the i-th sent `i * 1000 / rate` ms after the start whatever
 * the answers do (the client's sockets bound the requests in flight); returns them and the worst
 * lag of a send behind its schedule.
 */
export async function cancelAtRate(
  client: HttpClient,
  orders: readonly RestingOrder[],
  rate: number,
): Promise<{ sent: CancelSent[]; lag: number }> {
  const start = performance.now();
  let lag = 0;
  const pending: Promise<CancelSent>[] = [];
  for (const [index, order] of orders.entries()) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    lag = Math.max(lag, performance.now() - due);
    pending.push(cancelOne(client, order));
  }
  return { sent: await Promise.all(pending), lag };
}

/** Cancels the orders all at once, one request each (as many in flight as the client has sockets). */
export async function cancelAtOnce(client: HttpClient, orders: readonly RestingOrder[]): Promise<CancelSent[]> {
  return Promise.all(orders.map((order) => cancelOne(client, order)));
}
