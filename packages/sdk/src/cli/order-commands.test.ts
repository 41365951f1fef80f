import { generatePrivateKey } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { seedBookOneDepth } from '../test-support/server.js';
import { answerRecordingFetch, fieldsOf, serveTraderCli } from '../test-support/trader-cli.js';

/** Book 1 (WHBAR/USDC): asks 2 @ 0.25 and 3 @ 0.251, bid 5 @ 0.249, from another account. */
const served = serveTraderCli((api) => seedBookOneDepth(api.server));

const trader = () => ({ DEX_PRIVATE_KEY: generatePrivateKey() });

/** Runs a command; with `--json`, also returns the parsed output and the body of the answer from `path`. */
async function json(argv: readonly string[], env: Record<string, string>, path: string) {
  const recorder = answerRecordingFetch();
  const run = await served.cli.run([...argv, '--json'], { env, fetch: recorder.fetch });
  expect(run).toMatchObject({ code: 0, err: '' });
  const answer = recorder.answers.find((candidate) => new URL(candidate.url).pathname === path);
  return { output: JSON.parse(run.out), answer: JSON.parse(answer?.body ?? 'null'), recorder };
}

describe('order place, list, history and cancel', () => {
  it('round-trips a limit order in plain output', async () => {
    const env = trader();
    const placed = await served.cli.run(['order', 'place', '1', '--side', 'sell', '--price', '0.3', '--size', '2'], { env });
    expect(placed).toMatchObject({ code: 0, err: '' });
    const order = fieldsOf(placed.out);
    expect(order).toMatchObject({
      book: 'WHBAR/USDC (book 1)',
      type: 'LIMIT sell',
      spends: '2 WHBAR',
      'receives at least': '0.6 USDC',
      status: 'ACTIVE',
      filled: '0 of 2 WHBAR',
    });
    const id = order.order ?? '';
    expect(id).toMatch(/^\d+$/);

    const list = await served.cli.run(['order', 'list'], { env });
    expect(list.code).toBe(0);
    const rows = list.out.split('\n').map((line) => line.trim().split(/\s+/));
    expect(rows[0]).toEqual(['ID', 'BOOK', 'PAIR', 'TYPE', 'SIDE', 'PRICE', 'SIZE', 'FILLED', 'STATUS', 'CREATED']);
    expect(rows[1]?.slice(0, 9)).toEqual([id, '1', 'WHBAR/USDC', 'LIMIT', 'sell', '0.3', '2', '0', 'ACTIVE']);
    expect(list.out.split('\n').at(-1)).toBe('page 1: 1 of 1 orders');

    const cancel = await served.cli.run(['order', 'cancel', id], { env });
    expect(cancel).toMatchObject({ code: 0, out: `cancelling ${id} (off the book now; final when its history shows CANCELED)` });

    const history = await served.cli.run(['order', 'history', id], { env });
    expect(history.code).toBe(0);
    const events = history.out.split('\n');
    expect(events[0]).toBe(`order ${id} on book 1: 2 events`);
    expect(events[1]?.split(/\s+/)).toEqual(['EVENT', 'TYPE', 'TIME', 'ROLE', 'PRICE', 'SIZE', 'REASON', 'TRANSACTION']);
    // EVENT, TYPE, TIME, then the fill (none here) and the reason.
    const cells = events.slice(2).map((line) => line.trim().split(/\s+/));
    expect(cells.map(([, type, , ...rest]) => [type, ...rest])).toEqual([['CREATED'], ['CANCELED', 'USER']]);

    const canceled = await served.cli.run(['order', 'list', '--status', 'canceled,filled', '--book', '1'], { env });
    expect(canceled.out).toContain('CANCELED (USER)');
  });

  it('prints the API answers themselves with --json', async () => {
    const env = trader();
    const place = await json(['order', 'place', '1', '--side', 'buy', '--price', '0.2', '--size', '1.5'], env, '/orders/save');
    expect(place.output).toEqual(place.answer);
    expect(place.output.orders[0].meta).toMatchObject({ status: 'ACTIVE', filledAmount: '0' });
    expect(place.output.orders[0].input).toEqual({ token: expect.any(String), amount: '300000' });
    const id = Number(place.output.orders[0].meta.id);

    // ACTIVE goes out as OPEN, the word servers of both generations take.
    const list = await json(['order', 'list', '--status', 'ACTIVE', '--limit', '5', '--page', '1'], env, '/orders');
    expect(list.output).toEqual(list.answer);
    expect(list.recorder.urls.at(-1)).toBe(`${served.api.url}/orders?status=OPEN&page=1&limit=5`);
    expect(list.output.orders.map((order: { id: number }) => order.id)).toEqual([id]);
    expect(typeof list.output.orders[0].nonce).toBe('string');

    const history = await json(['order', 'history', String(id)], env, `/orders/${id}/history`);
    expect(history.output).toEqual(history.answer);

    const cancel = await json(['order', 'cancel', String(id)], env, '/cancel');
    expect(cancel.output).toEqual({
      status: 'PENDING',
      message: expect.any(String),
      accepted: [id],
      skipped: [],
      skippedDetails: [],
    });
  });

  it('sets the deadline SECONDS from now, and the maker-only and taker-once flags', async () => {
    const now = Date.now();
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(
      [
        'order',
        'place',
        '1',
        '--side',
        'sell',
        '--price',
        '0.4',
        '--size',
        '1',
        '--deadline',
        '3600',
        '--maker-only',
        '--taker-once',
        '--json',
      ],
      { env: trader(), fetch: recorder.fetch, now: () => now },
    );
    expect(run.code).toBe(0);
    const [order] = JSON.parse(run.out).orders;
    expect(order.info.deadline).toBe(String(Math.floor(now / 1000) + 3600));
    expect(order).toMatchObject({ makerOnly: true, takerOnce: true });
  });

  it('shows a book refusal as the order status, with exit code 1', async () => {
    const run = await served.cli.run(['order', 'place', '1', '--side', 'buy', '--price', '0.26', '--size', '1', '--maker-only'], {
      env: trader(),
    });
    expect(run.code).toBe(1);
    expect(fieldsOf(run.out).status).toBe('REJECTED (WOULD_TAKE)');
  });

  it('cancels every open order with --all: the nonce floor is one above the highest open nonce', async () => {
    const env = trader();
    for (const price of ['0.5', '0.6']) {
      expect(
        (await served.cli.run(['order', 'place', '1', '--side', 'sell', '--price', price, '--size', '1'], { env })).code,
      ).toBe(0);
    }
    const open = await json(['order', 'list', '--status', 'OPEN'], env, '/orders');
    const nonces = open.output.orders.map((order: { nonce: string }) => BigInt(order.nonce));
    const ids = open.output.orders.map((order: { id: number }) => order.id);
    const all = await served.cli.run(['order', 'cancel', '--all'], { env });
    expect(all.code).toBe(0);
    expect(all.out.split('\n')).toEqual([
      `cancelling ${[...ids].sort((a, b) => a - b).join(', ')} (off the book now; final when its history shows CANCELED)`,
      `nonce floor ${(nonces[0] > nonces[1] ? nonces[0] : nonces[1]) + 1n}`,
    ]);
    // The floor stays below the nonces the server hands out next.
    expect((await served.cli.run(['order', 'place', '1', '--side', 'sell', '--price', '0.7', '--size', '1'], { env })).code).toBe(
      0,
    );
    const after = await json(['order', 'list', '--status', 'OPEN'], env, '/orders');
    expect(after.output.orders).toHaveLength(1);
  });

  it('arms the dead-man switch with cancel-after SECONDS, and disarms it with 0', async () => {
    const env = trader();
    const now = Date.now();
    const armed = await served.cli.run(['order', 'cancel-after', '60'], { env });
    expect(armed.code).toBe(0);
    const at = /^every open order is cancelled at (\S+) unless the switch is armed again before$/.exec(armed.out)?.[1];
    expect(Date.parse(at ?? '') - now).toBeGreaterThanOrEqual(59_000);
    expect(Date.parse(at ?? '') - now).toBeLessThan(70_000);

    const again = await json(['order', 'cancel-after', '120'], env, '/cancel/after');
    expect(again.output).toEqual(again.answer);
    expect(again.output).toMatchObject({ timeoutSeconds: 120, triggerTime: expect.any(String) });
    expect(await served.cli.run(['order', 'cancel-after', '0'], { env })).toMatchObject({
      code: 0,
      out: 'dead-man switch disarmed',
    });
  });

  it('exits 1 naming the ids it could not cancel', async () => {
    const run = await served.cli.run(['order', 'cancel', '999999'], { env: trader() });
    expect(run).toMatchObject({ code: 1, out: 'no order cancelled\nnot cancelled 999999: NOT_FOUND' });
  });

  it("exits 1 with the server's message, code and request id when the API refuses", async () => {
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(['order', 'history', '999999'], { env: trader(), fetch: recorder.fetch });
    const refusal = recorder.answers.at(-1);
    expect(refusal?.status).toBe(404);
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `dex-trade: ${JSON.parse(refusal?.body ?? '').error} (HTTP 404 ORDER_NOT_FOUND, request id ${refusal?.requestId})`,
    );
  });
});

describe('market orders', () => {
  it('buys with --spend of the quote token, bounded by the quote it fetched first', async () => {
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(['order', 'place', '1', '--type', 'market', '--side', 'buy', '--spend', '0.5', '--json'], {
      env: trader(),
      fetch: recorder.fetch,
    });
    expect(run.code).toBe(0);
    const quote = JSON.parse(recorder.answers.find((answer) => answer.url.includes('/quote/exact-input'))?.body ?? '');
    const [order] = JSON.parse(run.out).orders;
    expect(order.input.amount).toBe('500000');
    expect(order.output.amount).toBe(quote.suggestedOutputAmount);
    expect(order.meta).toMatchObject({ type: 'MARKET', status: 'FILLED' });
  });

  it('sells --size no lower than a --price limit, and the rest is cancelled', async () => {
    const env = trader();
    const filled = await served.cli.run(
      ['order', 'place', '1', '--type', 'market', '--side', 'sell', '--size', '1', '--price', '0.2'],
      {
        env,
      },
    );
    expect(fieldsOf(filled.out)).toMatchObject({ 'receives at least': '0.2 USDC', status: 'FILLED', filled: '1 of 1 WHBAR' });
    const above = await served.cli.run(
      ['order', 'place', '1', '--type', 'market', '--side', 'sell', '--size', '1', '--price', '0.3'],
      {
        env,
      },
    );
    expect(fieldsOf(above.out)).toMatchObject({ status: 'CANCELED (IMMEDIATE_OR_CANCEL)', filled: '0 of 1 WHBAR' });
  });

  it('buys at no more than a --price limit, the least output rounded up', async () => {
    const run = await served.cli.run(
      ['order', 'place', '1', '--type', 'market', '--side', 'buy', '--spend', '0.3', '--price', '0.26', '--json'],
      { env: trader() },
    );
    expect(run.code).toBe(0);
    // 0.3 USDC at 0.26 USDC per WHBAR is 1.153846153... WHBAR: at least 1.15384616.
    expect(JSON.parse(run.out).orders[0].output.amount).toBe('115384616');
  });

  it.each([
    [['--type', 'market', '--side', 'buy', '--size', '1'], '--size: a market buy spends --spend of USDC'],
    [['--type', 'market', '--side', 'sell', '--spend', '1'], '--spend: a market sell spends --size'],
    [
      ['--type', 'market', '--side', 'sell', '--size', '1', '--deadline', '600'],
      '--deadline: a market order is immediate-or-cancel',
    ],
    [['--type', 'market', '--side', 'sell', '--size', '1.05'], '--size must be a multiple of 0.1'],
    [['--type', 'market', '--side', 'sell', '--size', '1', '--price', 'cheap'], '--price must be a plain decimal'],
    [['--side', 'buy', '--price', '0.2', '--spend', '1'], '--spend: --spend is for market buys'],
    [['--side', 'buy', '--price', '0.2', '--size', '1', '--deadline', '10'], '--deadline must be at least 60 seconds'],
    [['--side', 'buy', '--price', '0.2000001', '--size', '1'], 'price must be a multiple of the tick step 0.00001'],
    [['--side', 'buy', '--price', '0.2', '--size', '0.01'], 'size must be a multiple of the size step 0.1'],
    [['--side', 'buy', '--price', '0.00001', '--size', '0.1'], 'below the minimum notional of 100000 quote raw units (0.1)'],
    [['--side', 'buy', '--size', '1'], '--price is required'],
  ])('refuses %j as a usage error, sending no order', async (options, message) => {
    const recorder = answerRecordingFetch();
    const run = await served.cli.run(['order', 'place', '1', ...options], { env: trader(), fetch: recorder.fetch });
    expect(run.code).toBe(2);
    expect(run.err).toContain(message);
    expect(recorder.urls.filter((url) => url.includes('/orders/'))).toEqual([]);
  });
});
