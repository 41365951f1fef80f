import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { cancelOrders } from '../actions/cancel-orders.js';
import { getBooks } from '../actions/get-books.js';
import { getDepth } from '../actions/get-depth.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest, marketOrderRequest } from '../amounts.js';
import { createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { eventually } from '../test-support/eventually.js';
import { seedBookOneDepth } from '../test-support/server.js';
import { ladderLevels, serveTraderCli } from '../test-support/trader-cli.js';
import type { DepthSnapshot, OrderbookItem } from '../types.js';

const served = serveTraderCli((api) => seedBookOneDepth(api.server));

const CLEAR_SCREEN = '\x1b[H\x1b[2J';

/** Starts `depth 1 --watch` in-process; `stop` sends the SIGINT and gives the exit code and stderr. */
function watch(options: string[], run: { env?: Record<string, string>; isTerminal?: boolean } = {}) {
  const frames: string[] = [];
  const interrupt = new AbortController();
  const done = served.cli.run(['depth', '1', '--watch', ...options], {
    env: run.env ?? { DEX_PRIVATE_KEY: generatePrivateKey() },
    isTerminal: run.isTerminal ?? false,
    signal: interrupt.signal,
    onOut: (frame) => frames.push(frame),
  });
  return {
    frames,
    stop: async () => {
      interrupt.abort();
      return done;
    },
  };
}

/** The update id a plain frame shows in its first line. */
const updateOf = (frame: string | undefined) => Number(/update (\d+)/.exec(frame ?? '')?.[1] ?? -1);

async function depth(): Promise<DepthSnapshot> {
  return getDepth(createClient({ baseUrl: served.api.url }), { orderbookId: 1 });
}

/**
 * Another trader changes book 1 in several commits: a batch of six resting orders, a market buy
 * that takes the best ask and part of the next, and the cancellation of two of the batch.
 */
async function burst(): Promise<void> {
  const client = createClient({ baseUrl: served.api.url, signer: secp256k1Signer(generatePrivateKey()) });
  const book = (await getBooks(client)).orderbooks[0] as OrderbookItem;
  const limit = (side: 'buy' | 'sell', price: string, size: string) => limitOrderRequest(book, { side, price, size });
  const { orders } = await placeOrders(client, {
    orders: [
      limit('sell', '0.26', '1.5'),
      limit('sell', '0.27', '2'),
      limit('sell', '0.28', '0.7'),
      limit('buy', '0.24', '3'),
      limit('buy', '0.23', '1.1'),
      limit('buy', '0.249', '0.5'),
    ],
  });
  await placeOrders(client, { orders: [marketOrderRequest(book, { side: 'buy', inputAmount: 800_000n })] });
  await cancelOrders(client, { orderIds: [orders[1]?.meta.id ?? 0, orders[4]?.meta.id ?? 0] });
}

describe('depth --watch', () => {
  it('prints a frame per change; after a burst of orders the last frame is GET /depth', async () => {
    const watching = watch(['--levels', '50']);
    const start = await depth();
    await eventually('the first frame', () => (updateOf(watching.frames.at(-1)) >= start.lastUpdateId ? true : undefined));
    expect(ladderLevels(watching.frames[0] ?? '')).toEqual({ bids: start.bids, asks: start.asks });

    await burst();
    const end = await depth();
    expect(end.lastUpdateId).toBeGreaterThan(start.lastUpdateId + 5);
    await eventually('the last frame', () => (updateOf(watching.frames.at(-1)) === end.lastUpdateId ? true : undefined));
    const { code, err } = await watching.stop();
    expect({ code, err }).toEqual({ code: 0, err: '' });

    const last = watching.frames.at(-1) ?? '';
    expect(ladderLevels(last)).toEqual({ bids: end.bids, asks: end.asks });
    expect(last.split('\n')[0]).toBe(`WHBAR/USDC (book 1)  update ${end.lastUpdateId}`);
    expect(watching.frames.length).toBeGreaterThan(2);
    expect(watching.frames.join('')).not.toContain('\x1b');
  });

  it('redraws in place on a terminal', async () => {
    const watching = watch([], { isTerminal: true });
    await eventually('a frame', () => watching.frames[0]);
    await burst();
    const end = await depth();
    await eventually('the last frame', () => (updateOf(watching.frames.at(-1)) === end.lastUpdateId ? true : undefined));
    expect((await watching.stop()).code).toBe(0);
    for (const frame of watching.frames) expect(frame.startsWith(`${CLEAR_SCREEN}WHBAR/USDC (book 1)  update `)).toBe(true);
    expect(ladderLevels(watching.frames.at(-1) ?? '')).toEqual({ bids: end.bids.slice(0, 10), asks: end.asks.slice(0, 10) });
  });

  it('prints one book a line with --json, the last one equal to GET /depth', async () => {
    const watching = watch(['--json']);
    await eventually('a line', () => watching.frames[0]);
    await burst();
    const end = await depth();
    const lastUpdate = () => JSON.parse(watching.frames.at(-1) ?? '{}').lastUpdateId;
    await eventually('the last line', () => (lastUpdate() === end.lastUpdateId ? true : undefined));
    expect((await watching.stop()).code).toBe(0);
    expect(JSON.parse(watching.frames.at(-1) ?? '')).toEqual({
      orderbookId: 1,
      timestamp: expect.any(Number),
      lastUpdateId: end.lastUpdateId,
      bids: end.bids,
      asks: end.asks,
    });
  });

  it('follows the book with a stored session and no key', async () => {
    const key = generatePrivateKey();
    expect((await served.cli.run(['login'], { env: { DEX_PRIVATE_KEY: key } })).code).toBe(0);
    const watching = watch([], { env: { DEX_ACCOUNT: privateKeyToAddress(key) } });
    await eventually('a frame', () => watching.frames[0]);
    expect((await watching.stop()).code).toBe(0);
  });

  it('needs a login, and refuses a book that does not exist', async () => {
    const anonymous = await served.cli.run(['depth', '1', '--watch'], { env: {} });
    expect(anonymous.code).toBe(2);
    expect(anonymous.err).toContain('depth --watch acts as an account');
    const unknown = await served.cli.run(['depth', '77', '--watch'], { env: { DEX_PRIVATE_KEY: generatePrivateKey() } });
    expect(unknown).toMatchObject({ code: 1, err: 'dex-trade: There is no order book 77' });
  });
});
