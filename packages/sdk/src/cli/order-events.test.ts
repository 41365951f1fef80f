import { until } from '@dex/server/test-support';
import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { cancelOrders } from '../actions/cancel-orders.js';
import { getBooks } from '../actions/get-books.js';
import { getOpenOrders } from '../actions/get-open-orders.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { serveTraderCli } from '../test-support/trader-cli.js';
import type { OrderbookItem } from '../types.js';

const served = serveTraderCli();

/** Starts `order events` in-process for a fresh key; `stop` sends the SIGINT and gives the exit code and stderr. */
function follow(options: string[] = []) {
  const key = generatePrivateKey();
  const lines: string[] = [];
  const interrupt = new AbortController();
  const done = served.cli.run(['order', 'events', ...options], {
    env: { DEX_PRIVATE_KEY: key },
    signal: interrupt.signal,
    onOut: (line) => lines.push(line),
  });
  const client = createClient({ baseUrl: served.api.url, signer: secp256k1Signer(key) });
  return {
    lines,
    client,
    stop: async () => {
      interrupt.abort();
      return done;
    },
  };
}

async function bid(client: Client, price: string, book = 1, size = '1'): Promise<number> {
  const item = (await getBooks(client)).orderbooks.find((each) => each.id === book) as OrderbookItem;
  const { orders } = await placeOrders(client, { orders: [limitOrderRequest(item, { side: 'buy', price, size })] });
  return Number(orders[0]?.meta.id);
}

/** Places bids until the command prints one: it follows live from then on. Returns the id of that bid. */
async function untilLive(following: ReturnType<typeof follow>): Promise<number> {
  let last = 0;
  await until(
    async () => {
      if (following.lines.length > 0) return true;
      last = await bid(following.client, '0.1');
      return undefined;
    },
    'the first event',
    10_000,
    200,
  );
  return last;
}

describe('order events', () => {
  it("prints each event of the account's orders as it happens, until Ctrl-C", async () => {
    const following = follow();
    const id = await untilLive(following);
    await cancelOrders(following.client, { orderIds: [id] });
    await until(() => (following.lines.some((line) => line.includes('ORDER_CANCELED')) ? true : undefined), 'the cancel');
    expect(await following.stop()).toMatchObject({ code: 0, err: '' });

    const fields = (line: string | undefined) => line?.split(/\s{2,}/).slice(1);
    expect(fields(following.lines.at(-2))).toEqual(['ORDER_CREATED', `order ${id}`, 'book 1', 'ACTIVE', 'filled 0']);
    expect(fields(following.lines.at(-1))).toEqual(['ORDER_CANCELED', `order ${id}`, 'book 1', 'CANCELED (USER)', 'filled 0']);
    expect(following.lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z {2}/);
  });

  it('prints one event a line with --json, only of the book it is given', async () => {
    const following = follow(['--json', '--book', '2']);
    await bid(following.client, '0.2', 1);
    // The first book-2 bid that is printed: from then on every event of book 2 is.
    let id = 0;
    await until(
      async () => {
        if (following.lines.length > 0) return true;
        id = await bid(following.client, '0.1', 2, '10');
        return undefined;
      },
      'the first event',
      10_000,
      200,
    );
    expect((await following.stop()).code).toBe(0);
    const events = following.lines.map((line) => JSON.parse(line));
    expect(events.every((event) => event.orderbookId === '2')).toBe(true);
    expect(events.at(-1)).toMatchObject({
      type: 'ORDER_CREATED',
      orderId: String(id),
      orderbookId: '2',
      status: 'ACTIVE',
      reason: null,
      filledAmount: '0',
      recovered: false,
    });
  });

  it('keeps the open orders when Ctrl-C stops it with --cancel-on-disconnect', async () => {
    const following = follow(['--cancel-on-disconnect']);
    const id = await untilLive(following);
    const stopped = await following.stop();
    expect(stopped.code).toBe(0);
    expect(stopped.err).toContain('cancel-on-disconnect: the open orders are cancelled if this connection is lost');
    // Long enough for the server to have cancelled it, had it taken the close for a loss.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await getOpenOrders(following.client)).map((order) => order.id)).toContain(id);
  });
});
