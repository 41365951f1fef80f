import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUY, SELL } from '@dex/core';
import { afterEach, describe, expect, it } from 'vitest';
import { freezeProcess, thawProcess } from '../../src/test-support/frozen-process.js';
import { fund } from '../../src/test-support/funded-trader.js';
import { type Harness, RealTimeClock, type Reply, startHarness, Trader, until } from '../../src/test-support/harness.js';

/**
 * Fault suite: the devnet chain node the service runs stops answering for 30 s (SIGSTOP, then
 * SIGCONT: it keeps its state and its socket, as an unreachable node does). Bound: the test at most
 * 120 s (30 s of outage, the catch-up after it); every request during the outage at most 5 s.
 */
const OUTAGE_MS = 30_000;
const REQUEST_BOUND_MS = 5_000;

let h: Harness | undefined;
let stoppedNode: number | undefined;

afterEach(async () => {
  if (stoppedNode !== undefined) thawProcess(stoppedNode);
  stoppedNode = undefined;
  await h?.close();
  h = undefined;
});

/** `work`, which must settle within the request bound. */
async function promptly<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${REQUEST_BOUND_MS} ms`)), REQUEST_BOUND_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function orderOf(trader: Trader, id: number): Promise<{ status: string; reason: string | null } | undefined> {
  const reply = await trader.request<{ orders: { id: number; status: string; reason: string | null }[] }>(
    'GET',
    '/orders?limit=500',
  );
  return reply.body.orders.find((order) => Number(order.id) === id);
}

/** Builds and saves one limit order of book 1, bounded. */
async function save(trader: Trader, side: typeof BUY | typeof SELL, priceTicks: number, steps: number): Promise<Reply> {
  return promptly('a save', (async () => trader.save(await trader.build([trader.limitRequest(1, side, priceTicks, steps)])))());
}

describe('the chain node unreachable for 30 s', () => {
  it('goes on matching and answering; settlement and cancellations catch up after it', async () => {
    h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock() });
    const host = h;
    const maker = await fund(host, await Trader.secp256k1(host));
    const taker = await fund(host, await Trader.secp256k1(host));
    const ask = await maker.limit(1, SELL, 25_000, 40);
    const toCancel = await maker.limit(1, SELL, 26_000, 10);
    // The taker trades once before the outage: its holdings are known.
    expect((await taker.limit(1, BUY, 25_000, 10)).status).toBe('FILLED');

    const node = Number(readFileSync(join(host.config.dataDir, 'devnet-chain.pid'), 'utf8'));
    stoppedNode = node;
    await freezeProcess(node);
    const stoppedAt = Date.now();

    // Logins, reads, matching: as usual, and promptly.
    await promptly('a login', taker.login());
    for (const url of ['/books', '/depth/1', '/trades/1']) {
      expect((await promptly(url, host.app.inject({ method: 'GET', url }))).statusCode).toBe(200);
    }
    const crossing = await save(taker, BUY, 25_000, 10);
    expect(crossing.status).toBe(200);
    const crossingId = Number((crossing.body.orders as { meta: { id: string } }[])[0]?.meta.id);
    expect((await orderOf(taker, crossingId))?.status).toBe('FILLED');
    // A wallet the service never read funds of: refused at once (503), not held up.
    const stranger = await Trader.secp256k1(host);
    const refused = await save(stranger, BUY, 25_000, 10);
    expect(refused).toMatchObject({ status: 503, body: { code: 'FUNDS_UNAVAILABLE' } });
    expect(Object.keys(refused.body).sort()).toEqual(['code', 'error']);
    // A cancel is accepted and takes the order off its book; it is final only once the reactor confirms it.
    const cancel = await promptly('a cancel', maker.request('POST', '/cancel', { orderIds: [toCancel.id] }));
    expect(cancel).toMatchObject({ status: 202, body: { accepted: [toCancel.id] } });
    expect((await orderOf(maker, toCancel.id))?.status).toBe('ACTIVE');
    const depth = (await host.app.inject({ method: 'GET', url: '/depth/1' })).json() as { asks: string[][] };
    expect(depth.asks).toEqual([['0.25', '2']]);

    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + OUTAGE_MS - Date.now())));
    thawProcess(node);
    stoppedNode = undefined;

    // After the outage: the cancellation becomes final and every trade settles.
    await until(
      async () => ((await orderOf(maker, toCancel.id))?.status === 'CANCELED' ? true : undefined),
      'the cancellation to be confirmed',
      45_000,
      250,
    );
    const { store } = host.services;
    await until(
      async () =>
        (await store.settlements.pending(100)).length === 0 && (await store.settlements.submitted()).length === 0
          ? true
          : undefined,
      'settlement to catch up',
      45_000,
      250,
    );
    const { trades } = await store.trades.page(1, 'asc', 0, 10);
    expect(trades).toHaveLength(2);
    for (const trade of trades) expect(trade.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await orderOf(maker, ask.id)).toMatchObject({ status: 'PARTIALLY_FILLED' });
  }, 120_000);
});
