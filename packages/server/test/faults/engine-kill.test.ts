import { isDeepStrictEqual } from 'node:util';
import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { startTestCluster, storedDepths, type TestCluster } from '../../src/test-support/cluster.js';
import { type BuiltOrder, Trader, until } from '../../src/test-support/harness.js';
import { NATS_AVAILABLE } from '../../src/test-support/nats.js';
import { cleanUpServiceProcesses } from '../../src/test-support/service-process.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../src/test-support/store-engines.js';

/**
 * Fault suite: an engine of a two-engine cluster is killed with SIGKILL while traders save orders
 * through a gateway, and started again, twice. Bound: 4 traders, 12 rounds of saves each, the kills
 * after the third and the eighth round of one trader; the file takes about 20 s.
 */

const ROUNDS = 12;

interface Save {
  readonly built: BuiltOrder[];
  status: number;
  ids: number[];
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)('kill -9 of an engine under a load of signed orders', () => {
  const database = usePostgresDatabase('each', 'engine_kill');
  let cluster: TestCluster;

  beforeEach(async () => {
    cluster = await startTestCluster(database.url(), { shards: 2, gateways: 1, engineProcesses: true });
  }, 60_000);
  afterEach(async () => {
    await cluster.close();
    cleanUpServiceProcesses();
  });

  /** One trader's rounds: a buy and a sell on book 1 (shard 1's) and a sell on book 2 (shard 0's), each round one save. */
  async function trade(trader: Trader, saves: Save[], round: (n: number) => Promise<void>): Promise<void> {
    for (let n = 0; n < ROUNDS; n++) {
      const built = await trader.build([
        trader.limitRequest(1, n % 2 === 0 ? SELL : BUY, 25_000 + (n % 3) * 10, 10),
        trader.limitRequest(2, SELL, 100_000 + n, 10),
      ]);
      const reply = await trader.save(built);
      saves.push({
        built,
        status: reply.status,
        ids: reply.status === 200 ? reply.body.orders.map((order) => Number(order.meta.id)) : [],
      });
      await round(n);
    }
  }

  it('loses no acknowledged order, applies none twice, and the books rebuilt from the store are what the gateway streamed', async () => {
    const host = cluster.host(0);
    const traders = await Promise.all(Array.from({ length: 4 }, () => Trader.secp256k1(host)));
    const saves: Save[] = [];
    let killed: Promise<void> | undefined;
    let downMs = 0;
    let kills = 0;
    await Promise.all(
      traders.map((trader, index) =>
        trade(trader, saves, async (n) => {
          if (index !== 0 || (n !== 2 && n !== 7)) return;
          killed = (killed ?? Promise.resolve()).then(async () => {
            const started = performance.now();
            await cluster.killEngine(1);
            await cluster.startEngine(1);
            downMs += performance.now() - started;
            kills++;
          });
        }),
      ),
    );
    await killed;
    // Saves the gateway could not get answered while the engine was down are sent again, as a client would.
    const unanswered = saves.filter((save) => save.status !== 200);
    console.log(
      `engine kill: ${saves.length} saves, ${unanswered.length} answered 503 while engine 1 was down ${kills} times for ${Math.round(downMs)} ms in all (killed, restarted, following again)`,
    );
    expect(kills).toBe(2);
    expect(unanswered.every((save) => save.status === 503)).toBe(true);
    for (const save of unanswered) {
      const trader = traders.find((candidate) => candidate.swapper === save.built[0]?.info.swapper) as Trader;
      const reply = await trader.save(save.built);
      expect(reply.status).toBe(200);
      save.ids = reply.body.orders.map((order) => Number(order.meta.id));
    }

    const store = await openPostgresStore({ url: database.url() });
    try {
      const ids = saves.flatMap((save) => save.ids);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) {
        const history = await store.orders.history(id);
        // Created once: no command was applied twice.
        expect(history.filter((event) => event.type === 'CREATED')).toHaveLength(1);
      }
      // Every saved order is stored, under the id its save answered.
      const stored = await Promise.all(ids.map((id) => store.orders.get(id)));
      expect(stored.every((record) => record !== undefined)).toBe(true);

      // The books as the store holds them, rebuilt as a restarted engine rebuilds them, are the gateway's replicas.
      const depths = await storedDepths(database.url(), [1, 2]);
      for (const [bookId, depth] of depths) {
        await until(
          () => {
            try {
              const replica = host.services.books.view(bookId)?.depth();
              return isDeepStrictEqual(replica, depth) ? true : undefined;
            } catch {
              return undefined;
            }
          },
          `book ${bookId} on the gateway to match the store`,
          10_000,
        );
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});
