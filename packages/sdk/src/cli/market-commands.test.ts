import { generatePrivateKey } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { getBooks } from '../actions/get-books.js';
import { getDepth } from '../actions/get-depth.js';
import { placeOrders } from '../actions/place-orders.js';
import { limitOrderRequest } from '../amounts.js';
import { createClient } from '../client.js';
import { secp256k1Signer } from '../signing/secp256k1-signer.js';
import { seedBookOneDepth, tradeOnBookOne } from '../test-support/server.js';
import { answerRecordingFetch, ladderLevels, serveTraderCli } from '../test-support/trader-cli.js';
import type { OrderbookItem } from '../types.js';

/**
 * Book 1 (WHBAR/USDC): asks 2 @ 0.25 and 3 @ 0.251, bid 5 @ 0.249, then three trades; left: ask
 * 2 @ 0.251 and bid 5 @ 0.249. More levels are added by the depth tests.
 */
const served = serveTraderCli(async (api) => {
  await seedBookOneDepth(api.server);
  await tradeOnBookOne(api.server);
});

/** The body of the one answer a run received from `path`. */
function answerOf(recorder: ReturnType<typeof answerRecordingFetch>, path: string): unknown {
  const answers = recorder.answers.filter((answer) => new URL(answer.url).pathname === path);
  expect(answers).toHaveLength(1);
  return JSON.parse(answers[0]?.body ?? 'null');
}

describe('books', () => {
  it('prints a table of every book with its pair, status, prices, volumes and grid', async () => {
    const { code, out, err } = await served.cli.run(['books']);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    const lines = out.split('\n');
    expect(lines[0]?.split(/\s{2,}/)).toEqual([
      'ID',
      'PAIR',
      'STATUS',
      'HALTED',
      'LAST',
      '24H',
      'BASE VOL',
      'QUOTE VOL',
      'TICK',
      'SIZE STEP',
      'LOT',
      'MIN NOTIONAL',
    ]);
    expect(lines[1]?.trim().split(/\s+/)).toEqual([
      '1',
      'WHBAR/USDC',
      'OPEN',
      'no',
      '0.251',
      '+0.4000',
      '%',
      '3',
      '0.751',
      '0.00001',
      '0.1',
      '0.1',
      '0.1',
    ]);
    expect(lines[2]?.trim().split(/\s+/)).toEqual([
      '2',
      'SAUCE/USDC',
      'OPEN',
      'no',
      '-',
      '-',
      '0',
      '0',
      '0.00001',
      '1',
      '10',
      '1',
    ]);
    expect(lines[4]?.trim().split(/\s+/)).toEqual([
      '4',
      'HBAR/USDC',
      'OPEN',
      'no',
      '-',
      '-',
      '0',
      '0',
      '0.00001',
      '0.1',
      '0.1',
      '0.1',
    ]);
    expect(lines[5]).toBe('books 1-4 of 4');
  });

  it('prints the API answer itself with --json', async () => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['books', '--json'], { fetch: recorder.fetch });
    expect(code).toBe(0);
    expect(out.split('\n')).toHaveLength(1);
    expect(JSON.parse(out)).toEqual(answerOf(recorder, '/books'));
    expect(JSON.parse(out).orderbooks[0]).toMatchObject({ id: 1, quotePrice: '0.251', baseVol24h: '3', isMarketHalted: 0 });
  });

  it('asks for the page and limit given', async () => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['books', '--page', '2', '--limit', '2'], { fetch: recorder.fetch });
    expect(code).toBe(0);
    expect(recorder.urls).toEqual([`${served.api.url}/books?page=2&limit=2`]);
    expect(out.split('\n').at(-1)).toBe('books 3-4 of 4');
  });
});

describe('depth', () => {
  beforeAll(async () => {
    // More levels on both sides, from another account: 1.5 @ 0.26 and 4 @ 0.27, 2.3 @ 0.24.
    const client = createClient({ baseUrl: served.api.url, signer: secp256k1Signer(generatePrivateKey()) });
    const book = (await getBooks(client)).orderbooks[0] as OrderbookItem;
    await placeOrders(client, {
      orders: [
        limitOrderRequest(book, { side: 'sell', price: '0.26', size: '1.5' }),
        limitOrderRequest(book, { side: 'sell', price: '0.27', size: '4' }),
        limitOrderRequest(book, { side: 'buy', price: '0.24', size: '2.3' }),
      ],
    });
  });

  it('draws the ladder of GET /depth: the levels read back from the output are the snapshot levels', async () => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['depth', '1'], { fetch: recorder.fetch });
    expect(code).toBe(0);
    const snapshot = answerOf(recorder, '/depth/1') as { bids: unknown; asks: unknown; lastUpdateId: number };
    expect(ladderLevels(out)).toEqual({ bids: snapshot.bids, asks: snapshot.asks });
    expect(out.split('\n')[0]).toBe(`WHBAR/USDC (book 1)  update ${snapshot.lastUpdateId}`);
    expect(out.split('\n').slice(1)).toEqual([
      'SIDE  PRICE  SIZE  TOTAL',
      'ask   0.27    4      7.5',
      'ask   0.26    1.5    3.5',
      'ask   0.251   2      2',
      '      spread 0.002 (0.8 %)',
      'bid   0.249   5      5',
      'bid   0.24    2.3    7.3',
    ]);
    const fresh = await getDepth(createClient({ baseUrl: served.api.url }), { orderbookId: 1 });
    expect(ladderLevels(out)).toEqual({ bids: fresh.bids, asks: fresh.asks });
  });

  it('shows the best --levels of each side and how many there are', async () => {
    const { code, out } = await served.cli.run(['depth', '1', '--levels', '1']);
    expect(code).toBe(0);
    expect(ladderLevels(out)).toEqual({ asks: [['0.251', '2']], bids: [['0.249', '5']] });
    expect(out.split('\n').at(-1)).toBe('1 of 3 asks and 1 of 2 bids shown (--levels)');
  });

  it('prints the snapshot exactly as the API gave it with --json', async () => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['depth', '1', '--json'], { fetch: recorder.fetch });
    expect(code).toBe(0);
    expect(recorder.answers).toHaveLength(1);
    expect(out).toBe(JSON.stringify(JSON.parse(recorder.answers[0]?.body ?? '')));
    expect(JSON.parse(out)).toMatchObject({
      orderbookId: '1',
      bids: [
        ['0.249', '5'],
        ['0.24', '2.3'],
      ],
      asks: [
        ['0.251', '2'],
        ['0.26', '1.5'],
        ['0.27', '4'],
      ],
    });
  });

  it('refuses an unknown book with the server message, code and request id, exit code 1', async () => {
    const recorder = answerRecordingFetch();
    const { code, out, err } = await served.cli.run(['depth', '99'], { fetch: recorder.fetch });
    expect(code).toBe(1);
    expect(out).toBe('');
    const requestId = recorder.answers[0]?.requestId;
    expect(requestId).toBeTruthy();
    expect(err).toBe(`dex-trade: Order book not found (HTTP 404 ORDERBOOK_NOT_FOUND, request id ${requestId})`);
  });
});

describe('an interrupted command', () => {
  it('abandons its requests and exits with 130, without a message', async () => {
    const run = await served.cli.run(['books'], { signal: AbortSignal.abort() });
    expect(run).toEqual({ code: 130, out: '', err: '' });
  });
});

describe('trades', () => {
  it('prints the tape newest first with time, taker side, price, size and settlement', async () => {
    const { code, out } = await served.cli.run(['trades', '1']);
    expect(code).toBe(0);
    const rows = out.split('\n').map((line) => line.trim().split(/\s+/));
    expect(rows[0]).toEqual(['TIME', 'TAKER', 'PRICE', 'SIZE', 'TRANSACTION']);
    expect(rows.slice(1, 4).map((row) => row.slice(1))).toEqual([
      ['buy', '0.251', '1', 'unsettled'],
      ['buy', '0.25', '1.5', 'unsettled'],
      ['buy', '0.25', '0.5', 'unsettled'],
    ]);
    expect(rows[1]?.[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(out.split('\n').at(-1)).toBe('page 1: 3 of 3 trades');
  });

  it('passes sort, page and limit, and prints the API answer with --json', async () => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['trades', '1', '--sort', 'asc', '--limit', '2', '--page', '1', '--json'], {
      fetch: recorder.fetch,
    });
    expect(code).toBe(0);
    expect(recorder.urls).toEqual([`${served.api.url}/trades/1?sort=asc&page=1&limit=2`]);
    expect(JSON.parse(out)).toEqual(answerOf(recorder, '/trades/1'));
    expect(JSON.parse(out).trades.map((trade: { amountBase: string }) => trade.amountBase)).toEqual(['0.5', '1.5']);
  });
});

describe('quote', () => {
  it('quotes a sell of a display amount of the base token: what to submit, expected and suggested output', async () => {
    const { code, out } = await served.cli.run(['quote', '1', '--sell', '3.05']);
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      'sell 3.05 WHBAR on WHBAR/USDC (book 1)',
      'submit         3 WHBAR  (on the size grid)',
      'absorbed       3 WHBAR',
      'expected       0.747 USDC',
      'suggested min  0.743265 USDC  (expected less 0.5 %)',
      'fillable       yes',
      'pool           not included (--amm includes it)',
    ]);
  });

  it('quotes a buy as the cost in the quote token', async () => {
    const { code, out } = await served.cli.run(['quote', '1', '--buy', '1.5']);
    expect(code).toBe(0);
    expect(out.split('\n')).toEqual([
      'buy 1.5 WHBAR on WHBAR/USDC (book 1)',
      'receive        1.5 WHBAR  (on the size grid)',
      'expected cost  0.3765 USDC',
      'suggested max  0.378383 USDC  (expected plus 0.5 %)',
      'fillable       yes',
      'pool           not included (--amm includes it)',
    ]);
  });

  it.each([
    ['--sell', '3.05', '/books/1/quote/exact-input', 'inputAmount=305000000'],
    ['--buy', '1.5', '/books/1/quote/exact-output', 'outputAmount=150000000'],
  ])('sends %s %s in raw units and prints the raw quote with --json', async (option, amount, path, query) => {
    const recorder = answerRecordingFetch();
    const { code, out } = await served.cli.run(['quote', '1', option, amount, '--json'], { fetch: recorder.fetch });
    expect(code).toBe(0);
    expect(recorder.urls.find((url) => url.includes(path))).toContain(query);
    expect(JSON.parse(out)).toEqual(answerOf(recorder, path));
  });

  it.each([
    [['quote', '1', '--sell', '1.123456789'], '--sell has more than 8 decimal places'],
    [['quote', '1', '--sell', '1', '--buy', '1'], 'Give one of --sell or --buy'],
    [['quote', '1'], 'Give one of --sell or --buy'],
    [['quote', '1', '--buy', '0'], '--buy must be more than zero'],
    [['quote', '1', '--buy', '-1'], "'--buy"],
  ])('refuses %j as a usage error', async (argv, message) => {
    const { code, out, err } = await served.cli.run(argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain(message);
  });

  it('refuses a book that does not exist with exit code 1', async () => {
    const { code, err } = await served.cli.run(['quote', '42', '--sell', '1']);
    expect(code).toBe(1);
    expect(err).toBe('dex-trade: There is no order book 42');
  });
});
