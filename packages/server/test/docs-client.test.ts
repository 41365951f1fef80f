import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrivateKey } from '@hashgraph/sdk';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { type Harness, RealTimeClock, runOperatorOn, startHarness, tempDataDir, until } from '../src/test-support/harness.js';
import { type BotKey, type BuiltOrder, OrderbookApiClient, type OrderRequest } from './docs-client.js';

/**
 * The order book docs' own flow, by a client written from them alone (./docs-client.ts): log in,
 * read the books and the domain, build, sign the built order with ethers v5 or the ledger SDK,
 * send the built order back untouched, trade, cancel, and confirm finality on the user stream and
 * in the history, against the real service settling on its devnet chain.
 */

let h: Harness;
const keys = tempDataDir();
const sockets: WebSocket[] = [];

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { listen: true, clock: new RealTimeClock() });
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await h?.close();
  keys.remove();
});

/** As the README says: the operator's devnet faucet makes a funded `0.0.X` account and writes its key to a file. */
async function ledgerAccount(): Promise<BotKey> {
  const keyFile = join(keys.dir, `ledger-${Date.now()}.key`);
  const run = await runOperatorOn(h, 'account', 'create', '--key-type', 'ed25519', '--key-file', keyFile, '--json');
  expect(run.code).toBe(0);
  const { accountId } = JSON.parse(run.out) as { accountId: string };
  return { kind: 'ed25519', accountId, key: PrivateKey.fromStringED25519(readFileSync(keyFile, 'utf8').trim()) };
}

/** A fresh EVM wallet, funded by the operator. */
async function evmWallet(): Promise<BotKey> {
  const wallet = Wallet.createRandom();
  expect((await runOperatorOn(h, 'account', 'fund', '--account', wallet.address)).code).toBe(0);
  return { kind: 'ecdsa', wallet };
}

/** A logged-in client and every message of its user-event stream. */
async function bot(key: BotKey): Promise<{ client: OrderbookApiClient; key: BotKey; events: Record<string, unknown>[] }> {
  const client = new OrderbookApiClient({ baseUrl: h.url });
  await client.authenticate(key);
  const events: Record<string, unknown>[] = [];
  sockets.push(await client.connectUserEventsWs(['1'], (event) => events.push(event)));
  return { client, key, events };
}

/** Build, sign the built orders, and save them exactly as built, as the docs' "Minimal Limit Order Flow". */
async function placeAsDocumented(trader: Awaited<ReturnType<typeof bot>>, requests: OrderRequest[]) {
  const domain = await trader.client.getDomain();
  const builtOrders: BuiltOrder[] = await trader.client.buildOrders(requests);
  const items = [];
  for (let i = 0; i < builtOrders.length; i++) {
    const order = builtOrders[i] as BuiltOrder;
    const signature = await trader.client.signOrder(order, trader.key, domain);
    const request = requests[i] as OrderRequest;
    items.push({ order, signature, orderbookId: request.orderbookId, type: request.type });
  }
  const { orders: saved } = await trader.client.saveOrders(items);
  return saved.map((order) => order.meta);
}

const deadline = () => String(Math.floor(Date.now() / 1000) + 3600);
const eventOf = (events: Record<string, unknown>[], orderId: unknown, type: string) =>
  events.find((event) => event.orderId === orderId && event.type === type);

describe("the order book docs' client", () => {
  it('trades and cancels with an Ed25519 0.0.X account and a secp256k1 wallet, saving the built orders untouched', async () => {
    const ledger = await bot(await ledgerAccount());
    const wallet = await bot(await evmWallet());
    // The docs' depth handler parses every message as a diff.
    const diffs: Record<string, unknown>[] = [];
    sockets.push(await ledger.client.connectDepthWs(['1'], (diff) => diffs.push(diff)));
    const { orderbooks } = await ledger.client.getOrderbooks();
    const book = orderbooks.find((item) => item.id === 1) as {
      id: number;
      baseTokenEvmAddress: string;
      quoteTokenEvmAddress: string;
      isAMMEnabled: 0 | 1;
    };

    // The ledger account rests an ask of 2 WHBAR at 0.25, with the docs' isAMMEnabled: true.
    const [ask] = await placeAsDocumented(ledger, [
      {
        orderbookId: '1',
        type: 'LIMIT',
        deadline: deadline(),
        inputToken: book.baseTokenEvmAddress,
        inputAmount: '200000000',
        outputToken: book.quoteTokenEvmAddress,
        outputAmount: '500000',
        makerOnly: false,
        takerOnce: false,
        isAMMEnabled: true,
      },
    ]);
    expect(ask).toMatchObject({ id: expect.stringMatching(/^[1-9][0-9]*$/), orderbookId: '1', status: 'ACTIVE' });
    const [first] = await until(() => (diffs.length > 0 ? diffs : undefined), 'the first depth message');
    expect(first).toMatchObject({ orderbookId: '1', firstUpdateId: expect.any(Number), bids: [], asks: [['0.25', '2']] });

    // The wallet takes 1 WHBAR of it, echoing the book's own 0/1 flag into the request.
    const [bid] = await placeAsDocumented(wallet, [
      {
        orderbookId: '1',
        type: 'LIMIT',
        deadline: deadline(),
        inputToken: book.quoteTokenEvmAddress,
        inputAmount: '250000',
        outputToken: book.baseTokenEvmAddress,
        outputAmount: '100000000',
        isAMMEnabled: book.isAMMEnabled,
      },
    ]);
    expect(bid).toMatchObject({ status: 'FILLED' });

    // The fill settles on the chain: both histories show its transaction.
    for (const [trader, meta] of [
      [ledger, ask],
      [wallet, bid],
    ] as const) {
      const settled = await until(async () => {
        const history = await trader.client.getOrderHistory(String(meta?.id));
        const fill = history.events.find((event) => event.fill !== null);
        return typeof fill?.txHash === 'string' ? fill : undefined;
      }, `the settled fill of order ${meta?.id}`);
      expect(settled.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(eventOf(ledger.events, ask?.id, 'ORDER_CREATED')).toMatchObject({
      orderbookId: '1',
      side: 'sell',
      price: '0.25',
      amount: '2',
      orderType: 'LIMIT',
      makerOnly: 0,
      takerOnce: 0,
    });
    expect(eventOf(ledger.events, ask?.id, 'ORDER_PARTIALLY_FILLED')).toMatchObject({ status: 'PARTIALLY_FILLED' });

    // The ledger account cancels the rest; ORDER_CANCELED with the reactor's transaction is final.
    expect(await ledger.client.cancel([Number(ask?.id)])).toMatchObject({ status: 'PENDING', accepted: [Number(ask?.id)] });
    const canceled = await until(() => eventOf(ledger.events, ask?.id, 'ORDER_CANCELED'), 'ORDER_CANCELED of the ask');
    expect(canceled).toMatchObject({ status: 'CANCELED', reason: 'USER', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    // The wallet rests a bid and ends it with the docs' emergency cancelAll.
    const [resting] = await placeAsDocumented(wallet, [
      {
        orderbookId: '1',
        type: 'LIMIT',
        deadline: deadline(),
        inputToken: book.quoteTokenEvmAddress,
        inputAmount: '200000',
        outputToken: book.baseTokenEvmAddress,
        outputAmount: '100000000',
      },
    ]);
    expect(resting).toMatchObject({ status: 'ACTIVE' });
    const { orders } = await wallet.client.getOrders('?status=ACTIVE');
    const floor = BigInt(String(orders[0]?.nonce)) + 1n;
    expect(await wallet.client.cancelAll(floor.toString())).toMatchObject({ accepted: [Number(resting?.id)] });
    const floored = await until(() => eventOf(wallet.events, resting?.id, 'ORDER_CANCELED'), 'ORDER_CANCELED of the bid');
    expect(floored).toMatchObject({ reason: 'NONCE_FLOOR', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const history = await wallet.client.getOrderHistory(String(resting?.id));
    expect(history.events.map((event) => event.type)).toEqual(['CREATED', 'CANCELED']);
  });
});
