/**
 * One round of bench:latency's sequence for one trader, one request at a time as a market maker
 * sends them, each timed and its answer checked: build and save two resting orders (far from the
 * touch, so nothing crosses them), build and save one crossing order (it fills against the
 * liquidity rested before the clock started), cancel the first resting order, then raise the nonce
 * floor above every nonce of the round, which cancels the second.
 */
import type { Account } from './accounts.js';
import { signDigest } from './accounts.js';
import { CANCEL_PRICES } from './cancel-orders.js';
import { type HttpClient, type Reply, snippet } from './http-client.js';
import type { LatencySamples, Measure } from './latency-samples.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, type Market } from './market.js';
import { BOOK_PRICES, MAKER_STEPS, TAKER_STEPS } from './settlement-orders.js';

/** A client of the benchmark: its account and its own keep-alive socket. */
export interface Trader {
  readonly account: Account;
  readonly http: HttpClient;
}

interface SavedAnswer {
  readonly orders: { meta: { id: string; status: string } }[];
}

interface CancelAnswer {
  readonly accepted: (number | string)[];
}

async function timed(trader: Trader, samples: LatencySamples, measure: Measure, path: string, body: string): Promise<Reply> {
  const before = performance.now();
  const reply = await trader.http.send('POST', path, body, trader.account.token);
  const milliseconds = performance.now() - before;
  samples.record(measure, trader.account.signer.kind, milliseconds, Buffer.byteLength(body), reply.body.length);
  return reply;
}

function answerOf<T>(reply: Reply, status: number, what: string): T {
  if (reply.status !== status) throw new Error(`${what} answered ${reply.status}: ${snippet(reply.body)}`);
  return JSON.parse(reply.body.toString('utf8')) as T;
}

/** Builds one order (timed), signs it (not timed), saves it (timed) and checks its status; its id and nonce. */
async function placeOne(
  trader: Trader,
  samples: LatencySamples,
  request: ReturnType<typeof limitRequest>,
  crossing: boolean,
): Promise<{ id: string; nonce: bigint }> {
  const built = await timed(trader, samples, 'build', '/orders/build', JSON.stringify({ orderRequests: [request] }));
  const [order] = answerOf<{ orders: BuiltOrder[] }>(built, 200, 'POST /orders/build').orders;
  if (order === undefined) throw new Error('POST /orders/build answered no order');
  const { meta, ...wire } = order;
  const signature = signDigest(trader.account.signer, meta.orderHash);
  const body = JSON.stringify({ items: [{ order: wire, signature, orderbookId: BENCH_BOOK.id, type: 'LIMIT' }] });
  const measure = crossing ? 'save crossing' : 'save resting';
  const [saved] = answerOf<SavedAnswer>(
    await timed(trader, samples, measure, '/orders/save', body),
    200,
    'POST /orders/save',
  ).orders;
  const wanted = crossing ? 'FILLED' : 'ACTIVE';
  if (saved?.meta.status !== wanted) throw new Error(`a ${measure} answered ${saved?.meta.status ?? 'no order'}, not ${wanted}`);
  return { id: saved.meta.id, nonce: BigInt(wire.info.nonce) };
}

/** A 202 that accepted exactly `id`. */
function checkAccepted(reply: Reply, what: string, id: string): void {
  const { accepted } = answerOf<CancelAnswer>(reply, 202, what);
  if (accepted.length !== 1 || String(accepted[0]) !== id)
    throw new Error(`${what} accepted [${accepted.join(', ')}], expected [${id}]`);
}

/** One round; `sell`: the resting orders are asks and the crossing order sells into the resting bids, else the reverse. */
export async function runRound(trader: Trader, market: Market, samples: LatencySamples, sell: boolean): Promise<void> {
  const resting = limitRequest(market, sell, sell ? CANCEL_PRICES.askTicks : CANCEL_PRICES.bidTicks, MAKER_STEPS);
  const first = await placeOne(trader, samples, resting, false);
  const second = await placeOne(trader, samples, resting, false);
  const crossingTicks = sell ? BOOK_PRICES.bidTicks : BOOK_PRICES.askTicks;
  const crossing = await placeOne(trader, samples, limitRequest(market, sell, crossingTicks, TAKER_STEPS), true);
  const cancel = JSON.stringify({ orderIds: [first.id] });
  checkAccepted(await timed(trader, samples, 'cancel', '/cancel', cancel), 'POST /cancel', first.id);
  const floor = [first, second, crossing].reduce((most, order) => (order.nonce > most ? order.nonce : most), 0n) + 1n;
  const all = JSON.stringify({ nonceFloor: floor.toString() });
  checkAccepted(await timed(trader, samples, 'cancel/all', '/cancel/all', all), 'POST /cancel/all', second.id);
}
