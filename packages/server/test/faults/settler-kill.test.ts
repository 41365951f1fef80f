import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DevnetIssuer } from '../../src/adapters/chain/devnet/devnet-issuer.js';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { startTestCluster, type TestCluster } from '../../src/test-support/cluster.js';
import { fundBy } from '../../src/test-support/funded-trader.js';
import { Trader, until } from '../../src/test-support/harness.js';
import { NATS_AVAILABLE } from '../../src/test-support/nats.js';
import { cleanUpServiceProcesses } from '../../src/test-support/service-process.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../src/test-support/store-engines.js';

/**
 * Fault suite: the active settler of a cluster (two settlers as processes, one engine per book
 * shard, the devnet chain) is killed with SIGKILL while two pairs of traders fill each other's
 * orders, twice; each time the standby takes over and the killed one comes back as the standby.
 * Bound: 10 rounds of one fill per pair, the kills after rounds 2 and 6; the file takes about 40 s.
 */

const ROUNDS = 10;
/** Each pair trades on its own book: book 1 is shard 1's, book 2 shard 0's. */
const BOOKS = [
  { bookId: 1, price: 25_000 },
  { bookId: 2, price: 100_000 },
];
const RUNNING = 'settler running: settling fills and relaying cancellations';

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)('kill -9 of the active settler under a load of fills', () => {
  const database = usePostgresDatabase('each', 'settler_kill');
  let cluster: TestCluster;

  beforeEach(async () => {
    cluster = await startTestCluster(database.url(), { shards: 2, gateways: 1, settlers: 2, settlerProcesses: true });
  }, 90_000);
  afterEach(async () => {
    await cluster.close();
    cleanUpServiceProcesses();
  });

  it('the standby takes over within seconds, and every fill is settled on the reactor exactly once', async () => {
    const host = cluster.host(0);
    const { clients, reactor } = cluster.devnet();
    const issuer = new DevnetIssuer(clients, reactor);
    const funded = async () => fundBy(issuer, host, await Trader.secp256k1(host));
    // One at a time: the issuer's transactions must not race for its nonce.
    const pairs = [];
    for (const book of BOOKS) pairs.push({ ...book, maker: await funded(), taker: await funded() });
    let active = 0;
    const takeovers: number[] = [];
    let killing: Promise<void> = Promise.resolve();
    const killActive = async () => {
      const standby = 1 - active;
      const started = performance.now();
      await cluster.killSettler(active);
      await until(
        () => (cluster.settlerOutput(standby).includes(RUNNING) ? true : undefined),
        'the standby to take over',
        20_000,
        50,
      );
      takeovers.push(performance.now() - started);
      // The killed one comes back, and stands by.
      await cluster.startSettler(active);
      active = standby;
    };
    await Promise.all(
      pairs.map(async ({ bookId, price, maker, taker }, index) => {
        for (let round = 0; round < ROUNDS; round++) {
          await maker.limit(bookId, SELL, price, 10);
          expect((await taker.limit(bookId, BUY, price, 10)).status).toBe('FILLED');
          if (index === 0 && (round === 2 || round === 6)) killing = killing.then(killActive);
        }
      }),
    );
    await killing;

    const store = await openPostgresStore({ url: database.url() });
    try {
      await until(
        async () =>
          (await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0
            ? true
            : undefined,
        'every fill to be settled',
        30_000,
        200,
      );
      const trades = (await Promise.all(BOOKS.map(({ bookId }) => store.trades.page(bookId, 'asc', 0, 1_000)))).flatMap(
        (page) => page.trades,
      );
      expect(trades).toHaveLength(BOOKS.length * ROUNDS);
      expect(trades.every((trade) => /^0x[0-9a-f]{64}$/.test(trade.transactionHash ?? ''))).toBe(true);
      // The reactor's own record: one Filled event per trade, under its id, and no other.
      const filled = await clients.public.getContractEvents({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        eventName: 'Filled',
        fromBlock: 0n,
      });
      const fillIds = filled.map((event) => Number(event.args.fillId)).sort((a, b) => a - b);
      expect(fillIds).toEqual(trades.map((trade) => trade.id).sort((a, b) => a - b));
      console.log(
        `settler kill: ${trades.length} fills, the active settler killed ${takeovers.length} times; the standby took over in ${takeovers.map((ms) => Math.round(ms)).join(' and ')} ms`,
      );
      expect(takeovers).toHaveLength(2);
    } finally {
      await store.close();
    }
  }, 180_000);
});
