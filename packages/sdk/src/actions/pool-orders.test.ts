import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitOrderRequest, marketOrderRequest } from '../amounts.js';
import { type Client, createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { addBookOnePool, fundOnDevnet, tradesTakenBy } from '../test-support/pools.js';
import { recordingFetch, startTestServer, type TestServer } from '../test-support/server.js';
import type { OrderbookItem } from '../types.js';
import { buildOrders } from './build-orders.js';
import { getBooks } from './get-books.js';
import { type GetExactInputQuoteParameters, getExactInputQuote } from './get-exact-input-quote.js';
import { getExactOutputQuote } from './get-exact-output-quote.js';
import { placeOrders } from './place-orders.js';
import { saveOrders } from './save-orders.js';
import { signOrders } from './sign-orders.js';

let api: TestServer;
/** Book 1, WHBAR (8 decimals) / USDC (6 decimals), with a pool of 4,000 WHBAR and 1,000 USDC. */
let book: OrderbookItem;

/** A wallet funded on the devnet chain, as a client. */
async function fundedClient(): Promise<Client> {
  const signer = secp256k1Signer(generatePrivateKey());
  await fundOnDevnet(api.server, signer.swapper);
  return createClient({ baseUrl: api.url, signer });
}

beforeAll(async () => {
  api = await startTestServer({ CHAIN: 'devnet' });
  book = (await getBooks(createClient({ baseUrl: api.url }))).orderbooks[0] as OrderbookItem;
  expect(book).toMatchObject({ id: 1, isAMMEnabled: 1 });
  await addBookOnePool(api.server);
  // 10 WHBAR at 0.252: dearer than the pool (0.25, about 0.2508 with its fee) for the first WHBARs.
  const maker = await fundedClient();
  await placeOrders(maker, { orders: [limitOrderRequest(book, { side: 'sell', price: '0.252', size: '10' })] });
});

afterAll(async () => {
  await api?.close();
});

describe('quotes of a book with a pool', () => {
  it('quote the book alone with isAMMEnabled false, and book and pool with true', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const buyTwo = { orderbookId: 1, outputToken: book.baseTokenEvmAddress, outputAmount: 200_000_000n } as const;
    const alone = await getExactOutputQuote(client, { ...buyTwo, isAMMEnabled: false });
    const pooled = await getExactOutputQuote(client, { ...buyTwo, isAMMEnabled: true });
    // The book alone: 2 WHBAR of the ask at 0.252 cost 0.504 USDC.
    expect(alone).toMatchObject({ fillable: true, expectedInputAmount: '504000' });
    expect(pooled.fillable).toBe(true);
    expect(BigInt(pooled.expectedInputAmount)).toBeLessThan(504_000n);

    const spend = { orderbookId: 1, inputToken: book.quoteTokenEvmAddress, inputAmount: '504000' } as const;
    expect(await getExactInputQuote(client, { ...spend, isAMMEnabled: false })).toMatchObject({
      consumedInputAmount: '504000',
      expectedOutputAmount: '200000000',
    });
    // A buy takes whole size steps (0.1 WHBAR): with the pool the same 2 WHBAR cost less.
    const cheaper = await getExactInputQuote(client, { ...spend, isAMMEnabled: true });
    expect(cheaper.expectedOutputAmount).toBe('200000000');
    expect(BigInt(cheaper.consumedInputAmount)).toBe(BigInt(pooled.expectedInputAmount));

    await getExactInputQuote(client, spend);
    const flags = recorder.urls.map((url) => new URL(url).searchParams.get('isAMMEnabled'));
    expect(flags).toEqual(['false', 'true', 'false', 'true', null]);
  });

  it('refuse an isAMMEnabled that is not a boolean before sending anything', async () => {
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: api.url, fetch: recorder.fetch });
    const parameters = { orderbookId: 1, inputToken: book.quoteTokenEvmAddress, inputAmount: '504000', isAMMEnabled: 1 };
    await expect(getExactInputQuote(client, parameters as unknown as GetExactInputQuoteParameters)).rejects.toMatchObject({
      name: 'InvalidParameterError',
      parameter: 'isAMMEnabled',
    });
    expect(recorder.urls).toEqual([]);
  });
});

describe('orders that opt in to the pool', () => {
  it('sign an opted-in order with meta.isAMMEnabled for the save, and a plain one without meta', async () => {
    const client = await fundedClient();
    const requests = [
      limitOrderRequest(book, { side: 'buy', price: '0.1', size: '1', isAMMEnabled: true }),
      limitOrderRequest(book, { side: 'buy', price: '0.1', size: '1' }),
    ];
    expect(requests.map((request) => request.isAMMEnabled)).toEqual([true, undefined]);
    const built = await buildOrders(client, { orders: requests });
    expect(built.map((order) => order.meta.isAMMEnabled)).toEqual([true, false]);
    const items = await signOrders(client, { orders: built, requests });
    expect(items[0]?.order.meta).toEqual({ isAMMEnabled: true });
    expect(items[1]?.order).not.toHaveProperty('meta');
    const { orders } = await saveOrders(client, { items });
    expect(orders.map((order) => [order.meta.status, order.meta.isAMMEnabled])).toEqual([
      ['ACTIVE', true],
      ['ACTIVE', false],
    ]);
  });

  it('take part of an opted-in market buy from the pool, exactly as the pooled quote said', async () => {
    const taker = await fundedClient();
    const quote = await getExactInputQuote(taker, {
      orderbookId: 1,
      inputToken: book.quoteTokenEvmAddress,
      inputAmount: 5_000_000n,
      isAMMEnabled: true,
    });
    const { orders } = await placeOrders(taker, {
      orders: [
        marketOrderRequest(book, {
          side: 'buy',
          inputAmount: quote.snappedInputAmount,
          minOutputAmount: quote.suggestedOutputAmount,
          isAMMEnabled: true,
        }),
      ],
    });
    const [order] = orders;
    expect(order?.meta).toMatchObject({ type: 'MARKET', isAMMEnabled: true });
    const trades = await tradesTakenBy(api.server, order?.meta.id ?? 0);
    expect(trades.filter((trade) => trade.makerOrderId === null).length).toBeGreaterThan(0);
    expect(trades.reduce((sum, trade) => sum + trade.baseAmount, 0n)).toBe(BigInt(quote.expectedOutputAmount));
  });

  it('trade the book alone for the same order without the opt-in, though the pool is cheaper', async () => {
    const maker = await fundedClient();
    await placeOrders(maker, { orders: [limitOrderRequest(book, { side: 'sell', price: '0.26', size: '5' })] });
    const taker = await fundedClient();
    const inputAmount = 1_000_000n;
    const inputToken = book.quoteTokenEvmAddress;
    const alone = await getExactInputQuote(taker, { orderbookId: 1, inputToken, inputAmount, isAMMEnabled: false });
    const pooled = await getExactInputQuote(taker, { orderbookId: 1, inputToken, inputAmount, isAMMEnabled: true });
    expect(BigInt(pooled.expectedOutputAmount)).toBeGreaterThan(BigInt(alone.expectedOutputAmount));
    const { orders } = await placeOrders(taker, {
      orders: [marketOrderRequest(book, { side: 'buy', inputAmount, minOutputAmount: alone.suggestedOutputAmount })],
    });
    const [order] = orders;
    expect(order?.meta.isAMMEnabled).toBe(false);
    const trades = await tradesTakenBy(api.server, order?.meta.id ?? 0);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((trade) => trade.makerOrderId !== null)).toBe(true);
    expect(trades.reduce((sum, trade) => sum + trade.baseAmount, 0n)).toBe(BigInt(alone.expectedOutputAmount));
  });
});

describe('a native-coin book', () => {
  it('places an order requested in HBAR (the zero address, as the book lists it), signed for the wrapped token the onboarding status names', async () => {
    const client = await fundedClient();
    const books = (await getBooks(client)).orderbooks;
    const native = books.find((each) => each.baseTokenEvmAddress === '0x0000000000000000000000000000000000000000');
    if (native === undefined) throw new Error('the devnet lists no native-coin book');
    const result = await placeOrders(client, { orders: [limitOrderRequest(native, { side: 'sell', price: '0.3', size: '1' })] });
    const [saved] = result.orders;
    expect(saved?.meta.status).toBe('ACTIVE');
    const wrapped = books.find((each) => each.id === 1)?.baseTokenEvmAddress.toLowerCase();
    expect(saved?.input.token.toLowerCase()).toBe(wrapped);
  });
});
