import { BUY, SELL } from '@dex/core';
import {
  LIVE_BOOK,
  LIVE_DEPTH_DIFF,
  LIVE_HISTORY,
  LIVE_LISTED_ORDER,
  LIVE_ORDER_CANCELED,
  LIVE_ORDER_CREATED,
  LIVE_SAVED_META,
  LIVE_UNTRADED_BOOK,
} from '@dex/protocol/test-support/live-captures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../src/test-support/harness.js';
import { StreamClient, streamUrl } from '../src/test-support/stream-client.js';

/**
 * This service's answers against what the live service sends (`live-captures.md`, encoded in
 * `@dex/protocol/test-support/live-captures`), read as an outside client reads them: plain HTTP
 * and WebSocket on a listening server. One scenario: a maker rests an order on book 1, a taker
 * crosses part of it, the maker cancels the rest.
 */

type Json = Record<string, unknown>;

let h: Harness;
const answers = {} as {
  books: { orderbooks: Json[] };
  depth: Json;
  trades: { trades: Json[] };
  built: { orders: { meta: Json }[] };
  saved: { orders: { meta: Json }[] };
  listed: { orders: Json[] };
  history: { events: Json[] };
  cancel: Json;
  depthDiff: Json;
  created: Json;
  filled: Json;
  canceled: Json;
};

async function get<T>(path: string, token?: string): Promise<T> {
  const response = await fetch(`${h.url}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  h = await startHarness({}, { listen: true });
  const maker = await Trader.secp256k1(h);
  const taker = await Trader.secp256k1(h);
  const depthStream = await StreamClient.open(streamUrl(h.url, 'depth', { token: maker.token, books: '1' }));
  const userStream = await StreamClient.open(streamUrl(h.url, 'user-events', { token: maker.token }));
  try {
    const request = maker.limitRequest(1, SELL, 25_000, 20);
    answers.built = { orders: (await maker.build([request])).map((order) => ({ meta: order.meta as unknown as Json })) };
    const saved = await maker.save(await maker.build([request]));
    answers.saved = saved.body as unknown as typeof answers.saved;
    const orderId = String(answers.saved.orders[0]?.meta.id);
    await taker.limit(1, BUY, 25_000, 5);
    const cancel = await fetch(`${h.url}/cancel`, {
      method: 'POST',
      headers: { authorization: `Bearer ${maker.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ orderIds: [orderId] }),
    });
    expect(cancel.status).toBe(202);
    answers.cancel = (await cancel.json()) as Json;
    const ofOrder = (type: string) => (message: unknown) =>
      (message as Json).type === type && (message as Json).orderId === orderId;
    answers.created = (await userStream.waitFor(ofOrder('ORDER_CREATED'))) as unknown as Json;
    answers.filled = (await userStream.waitFor(ofOrder('ORDER_PARTIALLY_FILLED'))) as unknown as Json;
    answers.canceled = (await userStream.waitFor(ofOrder('ORDER_CANCELED'))) as unknown as Json;
    answers.depthDiff = (await depthStream.waitFor((message) => 'firstUpdateId' in message)) as unknown as Json;
    answers.books = await get('/books');
    answers.depth = await get('/depth/1');
    answers.trades = await get('/trades/1');
    answers.listed = await get('/orders', maker.token);
    answers.history = await get(`/orders/${orderId}/history`, maker.token);
  } finally {
    await Promise.all([depthStream.close(), userStream.close()]);
  }
}, 30_000);

afterAll(async () => {
  await h?.close();
});

/** The values at a path such as `orders[].meta.id` (every element of a list) in an answer; a null on the way has none. */
function valuesAt(answer: unknown, path: string): unknown[] {
  let values = [answer];
  for (const part of path.split('.')) {
    const name = part.replace(/\[\]$/, '');
    values = values.filter((value) => value !== null).map((value) => (value as Json)[name]);
    if (part.endsWith('[]')) values = values.flatMap((value) => value as unknown[]);
  }
  return values;
}

const jsonType = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * Every id of an order or a book that a route or stream sends, and its JSON type: as live
 * (`live-captures.md`: order ids strings in the save answer and on the streams, numbers in
 * `GET /orders` and the history), except the books' own `id`, which the seed fixes as a number.
 * Ids live does not show follow the answer they are in: trade ids and the stream's `eventId`
 * (this service's additions) are integers, as the cancel answer's order ids are, like `GET /orders`.
 */
const ID_TYPES: readonly (readonly [answer: keyof typeof answers, path: string, type: 'number' | 'string'])[] = [
  ['books', 'orderbooks[].id', 'number'],
  ['depth', 'orderbookId', 'string'],
  ['trades', 'orderbookId', 'string'],
  ['trades', 'trades[].tradeId', 'number'],
  ['built', 'orders[].meta.orderbookId', 'string'],
  ['saved', 'orders[].meta.id', 'string'],
  ['saved', 'orders[].meta.orderbookId', 'string'],
  ['listed', 'orders[].id', 'number'],
  ['listed', 'orders[].orderbookId', 'string'],
  ['history', 'orderId', 'number'],
  ['history', 'orderbookId', 'string'],
  ['history', 'events[].id', 'string'],
  ['history', 'events[].fill.tradeId', 'number'],
  ['cancel', 'accepted[]', 'number'],
  ['depthDiff', 'orderbookId', 'string'],
  ['created', 'orderId', 'string'],
  ['created', 'orderbookId', 'string'],
  ['filled', 'orderId', 'string'],
  ['filled', 'orderbookId', 'string'],
  ['filled', 'fill.tradeId', 'number'],
  ['filled', 'eventId', 'number'],
  ['canceled', 'orderId', 'string'],
  ['canceled', 'orderbookId', 'string'],
];

describe('ids on the wire', () => {
  it.each(ID_TYPES)('%s %s is a %s', (answer, path, type) => {
    const values = valuesAt(answers[answer], path).filter((value) => value !== null);
    expect(values.length, `${answer} has no ${path}`).toBeGreaterThan(0);
    expect(values.map(jsonType)).toEqual(values.map(() => type));
  });
});

/** What a field of a live answer holds, to compare with ours: its JSON type, and its unit where the type does not tell. */
type Unit = 'raw integer' | 'decimal' | 'unix ms' | 'iso time' | 'flag 0/1';

/** The units the live captures pin beyond the JSON type (`live-captures.md`). */
const UNITS: Readonly<Record<string, Unit>> = {
  'book.lotSize': 'raw integer',
  'book.minNotional': 'raw integer',
  'book.tickStep': 'decimal',
  'book.sizeStep': 'decimal',
  'book.quotePrice': 'decimal',
  'book.isAMMEnabled': 'flag 0/1',
  'book.isMarketHalted': 'flag 0/1',
  'book.createdAt': 'iso time',
  'depth.timestamp': 'unix ms',
  'event.timestamp': 'unix ms',
  'event.expiresAt': 'unix ms',
  'event.makerOnly': 'flag 0/1',
  'event.takerOnce': 'flag 0/1',
  'order.createdAt': 'iso time',
  'history.timestamp': 'unix ms',
  'meta.createdAt': 'iso time',
  'meta.filledAmount': 'raw integer',
};

const IS_UNIT: Readonly<Record<Unit, (value: unknown) => boolean>> = {
  'raw integer': (value) => typeof value === 'string' && /^(0|[1-9][0-9]*)$/.test(value),
  decimal: (value) => typeof value === 'string' && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(value),
  // Unix ms of this century, not seconds.
  'unix ms': (value) => typeof value === 'number' && Number.isInteger(value) && value > 1e12 && value < 1e13,
  'iso time': (value) => typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value),
  'flag 0/1': (value) => value === 0 || value === 1,
};

/** Fields a live answer has that this one types otherwise on purpose (docs/compatibility.md says why). */
const ON_PURPOSE: ReadonlySet<string> = new Set(['book.id']);

/**
 * Every field of the live answer exists in ours, with the same JSON type (null stands for "any
 * type or null": the live value was null in the capture) and, where the capture pins it, unit.
 */
function expectLiveShape(kind: string, live: Json, ours: Json): void {
  for (const [field, value] of Object.entries(live)) {
    const name = `${kind}.${field}`;
    if (ON_PURPOSE.has(name)) continue;
    expect(Object.hasOwn(ours, field), `${name} is missing`).toBe(true);
    if (value !== null && ours[field] !== null) expect(jsonType(ours[field]), name).toBe(jsonType(value));
    const unit = UNITS[name];
    if (unit !== undefined) {
      expect(IS_UNIT[unit](value), `the capture's ${name} is ${unit}`).toBe(true);
      expect(IS_UNIT[unit](ours[field]), `${name} is ${unit}: ${String(ours[field])}`).toBe(true);
    }
  }
}

describe('the live captures replayed against this service, field by field', () => {
  it('lists books as live: a traded book and a never-traded one', () => {
    const [traded, untraded] = [1, 3].map((id) => answers.books.orderbooks.find((book) => book.id === id) as Json);
    expectLiveShape('book', LIVE_BOOK, traded as Json);
    expectLiveShape('book', LIVE_UNTRADED_BOOK, untraded as Json);
    expect(untraded).toMatchObject({ quotePrice: '0', quotePrice24hHigh: '0', quotePrice24hLow: '0', quotePrice24hPct: null });
  });

  it('sends depth diffs as live', () => {
    expectLiveShape('depth', LIVE_DEPTH_DIFF, answers.depthDiff);
    expect(answers.depthDiff.finalUpdateId as number).toBeGreaterThanOrEqual(answers.depthDiff.firstUpdateId as number);
  });

  it("sends an order's events as live, counting them from 1", () => {
    expectLiveShape('event', LIVE_ORDER_CREATED, answers.created);
    expectLiveShape('event', LIVE_ORDER_CANCELED, answers.canceled);
    expect([answers.created.sequence, answers.filled.sequence, answers.canceled.sequence]).toEqual([1, 2, 3]);
  });

  it('answers the save, the order list and the history as live', () => {
    expectLiveShape('meta', LIVE_SAVED_META, answers.saved.orders[0]?.meta as Json);
    expectLiveShape('order', LIVE_LISTED_ORDER, answers.listed.orders[0] as Json);
    const { events, ...history } = answers.history;
    const { events: liveEvents, ...liveHistory } = LIVE_HISTORY;
    expectLiveShape('history', liveHistory, history);
    for (const event of events) expectLiveShape('history', liveEvents[0], event);
    expect(events.map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL', 'CANCELED']);
  });
});
