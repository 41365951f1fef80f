import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { addBookOnePool, fundOnDevnet, tradesTakenBy } from '../test-support/pools.js';
import type { TestServer } from '../test-support/server.js';
import { answerRecordingFetch, fieldsOf, serveTraderCli } from '../test-support/trader-cli.js';
import type { OrderbookItem } from '../types.js';

/** Book 1 with its pool (4,000 WHBAR, 1,000 USDC) and an ask of 10 WHBAR at 0.252 from another account. */
async function bookWithPool(api: TestServer): Promise<void> {
  await addBookOnePool(api.server);
  await ask(api, '0.252', '10');
}

/** An ask on book 1 from a fresh funded account. */
async function ask(api: TestServer, price: string, size: string): Promise<void> {
  const signer = secp256k1Signer(generatePrivateKey());
  await fundOnDevnet(api.server, signer.swapper);
  const maker = createClient({ baseUrl: api.url, signer });
  const book = { ...(await findBookOne(api)) };
  await placeOrders(maker, { orders: [limitOrderRequest(book, { side: 'sell', price, size })] });
}

async function findBookOne(api: TestServer): Promise<OrderbookItem> {
  const answer = await fetch(`${api.url}/books`);
  const { orderbooks } = (await answer.json()) as { orderbooks: OrderbookItem[] };
  const book = orderbooks.find((candidate) => candidate.id === 1);
  if (book === undefined) throw new Error('no book 1');
  return book;
}

const served = serveTraderCli(bookWithPool, { CHAIN: 'devnet' });

/** A trader's environment: a fresh key, its wallet funded on the devnet chain. */
async function fundedTrader(): Promise<Record<string, string>> {
  const key = generatePrivateKey();
  await fundOnDevnet(served.api.server, privateKeyToAccount(key).address);
  return { DEX_PRIVATE_KEY: key };
}

/** The query flag isAMMEnabled of the quotes a run asked for. */
function quoteFlags(urls: readonly string[]): (string | null)[] {
  return urls.filter((url) => url.includes('/quote/')).map((url) => new URL(url).searchParams.get('isAMMEnabled'));
}

function answerBody(recorder: ReturnType<typeof answerRecordingFetch>, path: string) {
  return JSON.parse(recorder.answers.find((answer) => answer.url.includes(path))?.body ?? 'null');
}

describe('quote on a book with a pool', () => {
  it('quotes the book alone by default, as a plain order trades, and book and pool with --amm', async () => {
    const plain = answerRecordingFetch();
    const alone = await served.cli.run(['quote', '1', '--buy', '2'], { fetch: plain.fetch });
    expect(alone.code).toBe(0);
    expect(fieldsOf(alone.out)).toMatchObject({ 'expected cost': '0.504 USDC', pool: 'not included (--amm includes it)' });
    expect(quoteFlags(plain.urls)).toEqual(['false']);

    const pooled = answerRecordingFetch();
    const withPool = await served.cli.run(['quote', '1', '--buy', '2', '--amm'], { fetch: pooled.fetch });
    expect(withPool.code).toBe(0);
    expect(fieldsOf(withPool.out).pool).toBe('included (--amm)');
    expect(quoteFlags(pooled.urls)).toEqual(['true']);
    expect(BigInt(answerBody(pooled, '/quote/').expectedInputAmount)).toBeLessThan(504_000n);
  });
});

describe('order place --amm', () => {
  it('routes a market buy into the pool, bounded by the quote that counts the pool', async () => {
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(['order', 'place', '1', '--type', 'market', '--side', 'buy', '--spend', '5', '--amm'], {
      env: await fundedTrader(),
      fetch: recorder.fetch,
    });
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(fieldsOf(run.out)).toMatchObject({ type: 'MARKET buy', pool: 'yes', status: 'FILLED' });
    expect(quoteFlags(recorder.urls)).toEqual(['true']);
    const quote = answerBody(recorder, '/quote/exact-input');
    const [order] = answerBody(recorder, '/orders/save').orders;
    expect(order.output.amount).toBe(quote.suggestedOutputAmount);
    expect(order.meta.isAMMEnabled).toBe(true);
    const trades = await tradesTakenBy(served.api.server, order.meta.id);
    expect(trades.some((trade) => trade.makerOrderId === null)).toBe(true);
  });

  it('leaves a market buy without --amm on the book, bounded by the quote of the book alone', async () => {
    await ask(served.api, '0.26', '5');
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(['order', 'place', '1', '--type', 'market', '--side', 'buy', '--spend', '0.5'], {
      env: await fundedTrader(),
      fetch: recorder.fetch,
    });
    expect(run).toMatchObject({ code: 0, err: '' });
    expect(fieldsOf(run.out)).toMatchObject({ pool: 'no', status: 'FILLED' });
    expect(quoteFlags(recorder.urls)).toEqual(['false']);
    const [order] = answerBody(recorder, '/orders/save').orders;
    expect(order.output.amount).toBe(answerBody(recorder, '/quote/exact-input').suggestedOutputAmount);
    const trades = await tradesTakenBy(served.api.server, order.meta.id);
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.every((trade) => trade.makerOrderId !== null)).toBe(true);
  });

  it('opts a limit order in, and says so', async () => {
    const run = await served.cli.run(['order', 'place', '1', '--side', 'buy', '--price', '0.1', '--size', '1', '--amm'], {
      env: await fundedTrader(),
    });
    expect(run.code).toBe(0);
    expect(fieldsOf(run.out)).toMatchObject({ type: 'LIMIT buy', pool: 'yes', status: 'ACTIVE' });
  });

  it.each([
    [['order', 'place', '3', '--side', 'buy', '--price', '1', '--size', '10', '--amm']],
    [['order', 'place', '3', '--type', 'market', '--side', 'buy', '--spend', '10', '--amm']],
    [['quote', '3', '--sell', '10', '--amm']],
  ])('refuses --amm on book 3, which has no pool, naming the book: %j', async (argv) => {
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(argv, { env: { DEX_PRIVATE_KEY: generatePrivateKey() }, fetch: recorder.fetch });
    expect(run.code).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain('--amm: book 3 (SAUCE/WHBAR) has no pool to route into (isAMMEnabled 0)');
    expect(recorder.urls.filter((url) => url.includes('/orders/') || url.includes('/quote/'))).toEqual([]);
  });
});
