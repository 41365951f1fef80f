import { BUY, SELL } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcClients } from '../adapters/chain/rpc-chain.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import { noMetrics } from '../ports/metrics.js';
import { fund } from '../test-support/funded-trader.js';
import { type Harness, startHarness, Trader } from '../test-support/harness.js';
import { tempDataDir } from '../test-support/temp-data-dir.js';
import { Closers } from './closers.js';
import { loadConfig } from './config.js';
import { createLogger } from './logging.js';
import { startSettlementThread } from './settlement-thread.js';

const WAIT_MS = 30_000;

async function until<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('settlement on its own thread', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ CHAIN: 'devnet', METRICS_PORT: '0', LOG_LEVEL: 'warn' }, { settlement: 'thread' });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('settles fills on the reactor, makes cancellations final and counts its batches in the service metrics', async () => {
    expect(h.services.settlement).toBeNull();
    expect(h.services.chain).not.toBeNull();
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    await maker.limit(1, SELL, 25_000, 20);
    await taker.limit(1, BUY, 25_000, 20);
    const [trade] = (await h.services.store.trades.page(1, 'desc', 0, 1)).trades;
    if (trade === undefined) throw new Error('no trade');
    await until(
      async () => ((await h.services.store.settlements.unsettled([trade.id])).size === 0 ? true : undefined),
      'settlement',
    );

    const resting = await maker.limit(1, SELL, 26_000, 10);
    expect((await maker.request('POST', '/cancel', { orderIds: [resting.id] })).status).toBe(202);
    const canceled = await until(async () => {
      const order = await h.services.store.orders.get(resting.id);
      return order?.status === 'CANCELED' ? order : undefined;
    }, 'the final cancellation');
    expect(canceled.status).toBe('CANCELED');

    const text = await (await fetch(`${h.metricsUrl}/metrics`)).text();
    expect(text).toMatch(/^dex_settlement_batches_total\{outcome="mined"\} [1-9]/m);
  });
});

describe('a settlement thread that cannot start', () => {
  it('fails the start, naming settlement and the chain failure that stopped it', async () => {
    const data = tempDataDir();
    try {
      const config = loadConfig({
        DATA_DIR: data.dir,
        LOG_LEVEL: 'silent',
        CHAIN: 'rpc',
        CHAIN_RPC_URL: 'http://127.0.0.1:9',
        REACTOR_ADDRESS: '0x00000000000000000000000000000000000000aa',
        OPERATOR_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
      });
      // Nothing answers on port 9 (discard): reconciling with the chain fails.
      const chain = {
        public: rpcClients(config, 'http://127.0.0.1:9').publicClient,
        reactor: '0x00000000000000000000000000000000000000aa',
        headAtStart: 0n,
        indexFrom: 0n,
        amm: null,
        wrappedNative: null,
      } as const;
      const logger = createLogger('silent');
      const closers = new Closers(logger, 'test');
      const desk = {
        unwindFills: async () => {},
        finalizeCancels: async () => 0,
        cancelledOnChain: async () => {},
        floorRaisedOnChain: async () => {},
        poolSwapsSettled: () => {},
        poolReservesSynced: () => {},
      };
      await expect(
        startSettlementThread(config, chain, { desk, deskEvents: new DeskEvents(logger), metrics: noMetrics, logger }, closers),
      ).rejects.toMatchObject({
        message: 'settlement could not start',
        cause: expect.objectContaining({ message: expect.stringContaining('HTTP request failed') }),
      });
      await closers.closeAll();
    } finally {
      data.remove();
    }
  });
});
