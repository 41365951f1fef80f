/**
 * The orders of bench:settlement: who sends which, at what price, in which requests; built on the
 * server, signed here, saved over HTTP. Resting orders and crossing ones meet at a book's two prices
 * (`BookPrices`); in the AMM phase a share of the crossing orders opt in to the book's pool.
 */
import type { Account, KeyKind, Role } from './accounts.js';
import { signDigest } from './accounts.js';
import { type HttpClient, snippet } from './http-client.js';
import { BENCH_BOOK, type BuiltOrder, limitRequest, type Market } from './market.js';

/**
 * Sizes in size steps (0.1 WHBAR): each crossing order fills once (on the book alone), each
 * resting order four times.
 */
export const TAKER_STEPS = BENCH_BOOK.takerSteps;
export const FILLS_PER_MAKER = 4;
export const MAKER_STEPS = TAKER_STEPS * FILLS_PER_MAKER;
/** Requests in flight while building orders and in the throughput phases. */
export const IN_FLIGHT = 2;
/** The latency phase sends one unit of crossing orders per tick (a request per key kind). */
export const TICK_MS = 100;
export const STREAM_IN_FLIGHT = 8;

/** The prices, in ticks, at which resting asks and bids wait and crossing orders meet them. */
export interface BookPrices {
  readonly askTicks: number;
  readonly bidTicks: number;
}

/** The book-only phases: either side of 1.00000 by a tick (BENCH_BOOK). */
export const BOOK_PRICES: BookPrices = { askTicks: BENCH_BOOK.askTicks, bidTicks: BENCH_BOOK.bidTicks };

/**
 * The AMM phase: 1.00400 and 0.99600, 0.4 % either side of the pool's 1.0. The pair charges 0.3 %,
 * so a pool at 1.0 sells at 1.003 and buys at 0.997: inside this spread, while the book-only
 * phases' spread of 0.02 % is narrower than the pool's fee and no taker would ever route. An
 * opted-in buyer takes from the pool until its price after the fee reaches 1.004 (the pool at about
 * 1.001), then the resting asks; a seller brings it back down to about 0.999. See AMM_POOL.
 */
export const POOL_BOOK_PRICES: BookPrices = { askTicks: 100_400, bidTicks: 99_600 };

/**
 * The pool of the AMM phase, in whole units of base and quote: 1.0, the middle of
 * POOL_BOOK_PRICES. An opted-in taker swaps until the pool's price after its 0.3 % fee reaches the
 * book's (about 0.1 % of the pool's base from one edge to the other, 0.25 WHBAR here: half a
 * crossing order's 0.5), and the next one, on the other side, swaps it back. So the pool never
 * runs dry nor drifts: each crossing order that opts in after one of the other side takes about
 * half its size from it (one after its own side, where two requests meet, less).
 */
export const AMM_POOL = { base: '250', quote: '250' } as const;

/** A price of BENCH_BOOK (tick 0.00001) for people. */
export const price = (ticks: number): string => (ticks / 100_000).toFixed(5);

/** One save request: orders of one trader, all resting or all crossing. */
export interface Batch {
  readonly trader: Account;
  readonly taker: boolean;
  readonly size: number;
  readonly prices: BookPrices;
  /**
   * Crossing orders that opt in to the book's pool (isAMMEnabled), alternating buy and sell so each
   * one finds the pool where the one before left it, at the far edge of its own side.
   */
  readonly amm: boolean;
  body: string;
}

/** Whether a batch's order `index` sells base: a seller rests asks and takes bids; a buyer the reverse. */
function sells(batch: Batch, index: number): boolean {
  return batch.amm ? index % 2 === 1 : batch.trader.role === 'seller';
}

/** The build request of a batch's order `index`, at the price of the side it rests on or takes. */
function orderRequest(market: Market, batch: Batch, index: number) {
  const sell = sells(batch, index);
  // Resting sells and crossing buys meet at the ask; resting buys and crossing sells at the bid.
  const ticks = sell !== batch.taker ? batch.prices.askTicks : batch.prices.bidTicks;
  const request = limitRequest(market, sell, ticks, batch.taker ? TAKER_STEPS : MAKER_STEPS);
  return batch.amm ? { ...request, isAMMEnabled: true } : request;
}

/**
 * Splits requests between the key kinds: each unit of orders gives Ed25519 traders their share
 * (rounded, the error carried to the next unit), so Ed25519 orders are spread evenly through the
 * flow rather than bunched into whole requests; round robin over the traders of a kind and role
 * (of a kind alone for traders that take both sides).
 */
export class TraderPicker {
  private orders = 0;
  private ed25519 = 0;
  private readonly turns = new Map<string, number>();

  /** `pairs`: each kind's part a whole number of pairs (for batches of alternating sides). */
  constructor(
    private readonly traders: readonly Account[],
    private readonly share: number,
    private readonly pairs = false,
  ) {}

  /** The requests of one unit of `size` orders of traders of `role` (any role: undefined). */
  split(role: Role | undefined, taker: boolean, size: number, prices: BookPrices, amm = false): Batch[] {
    const grain = this.pairs ? 2 : 1;
    this.orders += size;
    const ed = Math.round((this.share * this.orders) / grain) * grain - this.ed25519;
    this.ed25519 += ed;
    const parts = [
      { kind: 'secp256k1', size: size - ed },
      { kind: 'ed25519', size: ed },
    ] as const;
    return parts
      .filter((part) => part.size > 0)
      .map((part) => ({ trader: this.next(role, part.kind), taker, size: part.size, prices, amm, body: '' }));
  }

  private next(role: Role | undefined, kind: KeyKind): Account {
    const group = this.traders.filter((trader) => (role === undefined || trader.role === role) && trader.signer.kind === kind);
    if (group.length === 0) throw new Error(`no ${kind} trader${role === undefined ? '' : ` (${role})`}`);
    const key = `${role ?? 'any'}:${kind}`;
    const turn = this.turns.get(key) ?? 0;
    this.turns.set(key, turn + 1);
    return group[turn % group.length] as Account;
  }
}

/**
 * Units of at most `size` orders, alternating the book's sides, for `fills` fills in all: resting
 * orders (each fills FILLS_PER_MAKER times) or crossing ones (each fills once).
 */
export function plan(picker: TraderPicker, fills: number, size: number, taker: boolean, prices: BookPrices): Batch[][] {
  const units: Batch[][] = [];
  const perSide = (taker ? fills : fills / FILLS_PER_MAKER) / 2;
  for (let left = perSide; left > 0; left -= size) {
    for (const side of ['ask', 'bid'] as const) {
      // Resting asks are sellers'; crossing orders that take asks are buyers'.
      const role: Role = (side === 'ask') !== taker ? 'seller' : 'buyer';
      units.push(picker.split(role, taker, Math.min(size, left), prices));
    }
  }
  return units;
}

/**
 * How many of each unit's `2 * size` crossing orders opt in to the pool: `share` of them, an even
 * number (as many buys as sells), the rounding error carried to the next unit.
 */
export function poolTakerCounts(takers: number, size: number, share: number): number[] {
  const counts: number[] = [];
  let done = 0;
  let opted = 0;
  for (let left = takers; left > 0; left -= 2 * size) {
    const unit = Math.min(2 * size, left);
    done += unit;
    const wanted = Math.min(unit, Math.round((share * done) / 2) * 2 - opted);
    counts.push(wanted);
    opted += wanted;
  }
  return counts;
}

/**
 * The crossing orders of the AMM phase, `takers` in all in units of `2 * size` (half buying, half
 * selling): `share` of each unit opt in to the pool, sent by `poolTraders` in batches that
 * alternate buy and sell; the rest split between the book's sides as in `plan`.
 */
export function planWithPool(
  picker: TraderPicker,
  poolPicker: TraderPicker,
  takers: number,
  size: number,
  share: number,
): Batch[][] {
  return poolTakerCounts(takers, size, share).map((opted, index) => {
    const unit = Math.min(2 * size, takers - index * 2 * size);
    const perSide = (unit - opted) / 2;
    const pooled = opted === 0 ? [] : poolPicker.split(undefined, true, opted, POOL_BOOK_PRICES, true);
    const rest =
      perSide === 0 ? [] : (['buyer', 'seller'] as const).flatMap((role) => picker.split(role, true, perSide, POOL_BOOK_PRICES));
    return [...pooled, ...rest];
  });
}

/** Builds each batch's orders on the server and signs them here (not timed). */
export async function signBatches(client: HttpClient, market: Market, batches: readonly Batch[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < batches.length; at = next++) {
      const batch = batches[at] as Batch;
      const requests = Array.from({ length: batch.size }, (_, index) => orderRequest(market, batch, index));
      const { orders } = await client.json<{ orders: (BuiltOrder & { meta: { isAMMEnabled?: boolean } })[] }>(
        'POST',
        '/orders/build',
        { orderRequests: requests },
        batch.trader.token,
      );
      if (batch.amm && orders.some((order) => order.meta.isAMMEnabled !== true)) {
        throw new Error(`book ${BENCH_BOOK.id} built an opted-in order without meta.isAMMEnabled: is the book AMM-enabled?`);
      }
      // The opt-in travels in the built order's meta, which the save reads: keep it there.
      const items = orders.map(({ meta, ...order }) => ({
        order: batch.amm ? { ...order, meta } : order,
        signature: signDigest(batch.trader.signer, meta.orderHash),
        orderbookId: BENCH_BOOK.id,
        type: 'LIMIT',
      }));
      batch.body = JSON.stringify({ items });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

interface SaveAnswer {
  readonly orders: { meta: { status: string; filledAmount: string } }[];
}

/** Saves a batch and checks that crossing orders filled and resting ones rest. */
export async function save(client: HttpClient, batch: Batch, problems: string[]): Promise<void> {
  const reply = await client.send('POST', '/orders/save', batch.body, batch.trader.token);
  if (reply.status !== 200) throw new Error(`POST /orders/save answered ${reply.status}: ${snippet(reply.body)}`);
  const { orders } = JSON.parse(reply.body.toString('utf8')) as SaveAnswer;
  const wanted = batch.taker ? 'FILLED' : 'ACTIVE';
  const wrong = orders.filter((order) => order.meta.status !== wanted).length;
  if (orders.length !== batch.size) problems.push(`a save answered ${orders.length} orders for ${batch.size}`);
  if (wrong > 0) problems.push(`${wrong} orders of a save were not ${wanted}`);
}

export async function saveAll(client: HttpClient, batches: readonly Batch[], problems: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < batches.length; at = next++) await save(client, batches[at] as Batch, problems);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** Sends one unit every tick, whatever the answers do (up to a cap of requests in flight); returns the worst lag. */
export async function stream(client: HttpClient, units: readonly Batch[][], problems: string[]): Promise<number> {
  const start = performance.now();
  const inFlight = new Set<Promise<void>>();
  let lag = 0;
  for (const [index, unit] of units.entries()) {
    const due = start + index * TICK_MS;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const batch of unit) {
      while (inFlight.size >= STREAM_IN_FLIGHT) await Promise.race(inFlight);
      lag = Math.max(lag, performance.now() - due);
      const sent: Promise<void> = save(client, batch, problems).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
    }
  }
  await Promise.all(inFlight);
  return lag;
}
