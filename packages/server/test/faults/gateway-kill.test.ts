import { BUY, SELL } from '@dex/core';
import { createClient, type StreamHandle, type StreamStatus, secp256k1Signer, watchDepth, watchUserEvents } from '@dex/sdk';
import type { Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/adapters/postgres/postgres-store.js';
import { displayLevel } from '../../src/application/market-data/market-data-service.js';
import { startTestCluster, storedDepths, type TestCluster } from '../../src/test-support/cluster.js';
import { Trader, until } from '../../src/test-support/harness.js';
import { NATS_AVAILABLE } from '../../src/test-support/nats.js';
import { startFailoverProxy } from '../../src/test-support/private-servers.js';
import { cleanUpServiceProcesses } from '../../src/test-support/service-process.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../../src/test-support/store-engines.js';

/**
 * Fault suite: a gateway of a cluster (two engines in this process, two gateways as processes) is
 * killed with SIGKILL while traders save orders through both gateways, and an SDK client follows
 * the depth and its own orders' events through it. The SDK's client takes one base URL (it cannot
 * be given several, nor a function of the attempt), so it reaches the gateways as deployments do:
 * through a load balancer (a TCP proxy here) that hands new connections to the first gateway that
 * takes them. Bound: 4 traders, 12 rounds of one save each, the kill after the fourth round of the
 * SDK's own trader; the file takes about 12 s.
 */
const ROUNDS = 12;
const KILL_AFTER_ROUND = 3;

/** A trader on one gateway that moves to gateway 1 when its own stops answering, as a client given both addresses would. */
class MovingTrader {
  moved = false;
  /** Saves sent again through gateway 1 after gateway 0 gave no answer to them. */
  resent = 0;

  private constructor(
    private readonly cluster: TestCluster,
    readonly key: Hex,
    private trader: Trader,
  ) {}

  static async on(cluster: TestCluster, gateway: number): Promise<MovingTrader> {
    const key = generatePrivateKey();
    return new MovingTrader(cluster, key, await Trader.secp256k1(cluster.host(gateway), key));
  }

  get account(): string {
    return this.trader.account;
  }

  /**
   * Builds and saves the round's orders, on book 1 (engine 1's) and book 2 (engine 0's); a save
   * that got no answer is sent again through gateway 1 (answered by order hash).
   */
  async round(n: number): Promise<number[]> {
    const requests = [
      this.trader.limitRequest(1, n % 2 === 0 ? SELL : BUY, 25_000 + (n % 3) * 10, 10),
      this.trader.limitRequest(2, SELL, 100_000 + n, 10),
    ];
    const built = await this.either(() => this.trader.build(requests));
    const reply = await this.either(
      () => this.trader.save(built),
      () => this.resent++,
    );
    expect(reply.status).toBe(200);
    return reply.body.orders.map((order) => Number(order.meta.id));
  }

  /** `work` on this trader's gateway; if the gateway gave no answer at all (fetch fails), once more on gateway 1. */
  private async either<T>(work: () => Promise<T>, again: () => void = () => {}): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (this.moved || !(error instanceof TypeError)) throw error;
      this.moved = true;
      this.trader = await Trader.secp256k1(this.cluster.host(1), this.key);
      again();
      return work();
    }
  }
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)('kill -9 of a gateway under a load of signed orders', () => {
  const database = usePostgresDatabase('each', 'gateway_kill');
  let cluster: TestCluster;
  let proxy: Awaited<ReturnType<typeof startFailoverProxy>>;

  beforeEach(async () => {
    cluster = await startTestCluster(database.url(), { shards: 2, gateways: 2, gatewayProcesses: true });
    proxy = await startFailoverProxy(cluster.gatewayUrls.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })));
  }, 60_000);
  afterEach(async () => {
    await proxy.close();
    await cluster.close();
    cleanUpServiceProcesses();
  });

  it("the SDK's streams reconnect through the other gateway and resync, and no acknowledged order is lost", async () => {
    // Each trader's rounds touch books of both engines, so the SDK's own user stream gets events of
    // one account from two engines, which may arrive out of id order.
    const traders = await Promise.all([0, 1, 0, 1].map((gateway) => MovingTrader.on(cluster, gateway)));
    const [own] = traders as [MovingTrader];
    const statuses: { status: StreamStatus; at: number }[] = [];
    const client = createClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, signer: secp256k1Signer(own.key) });
    const onStatus = (status: StreamStatus) => statuses.push({ status, at: performance.now() });
    const depth = watchDepth(client, { books: [1, 2], onStatus });
    const events = watchUserEvents(client, { onStatus });
    const streams: StreamHandle[] = [depth, events];
    try {
      await Promise.all(streams.map((stream) => stream.waitUntilLive()));
      const saves: number[][] = [];
      let killed: Promise<number> | undefined;
      await Promise.all(
        traders.map(async (trader, index) => {
          for (let n = 0; n < ROUNDS; n++) {
            saves.push(await trader.round(n));
            if (index === 0 && n === KILL_AFTER_ROUND) {
              const at = performance.now();
              killed = cluster.killGateway(0).then(() => at);
            }
          }
        }),
      );
      const killedAt = await (killed as Promise<number>);
      const live = () => (streams.every((stream) => stream.status === 'live') ? true : undefined);
      await until(live, 'both streams live again', 15_000, 20);
      const liveAgainMs = Math.max(...statuses.filter(({ status }) => status === 'live').map(({ at }) => at)) - killedAt;
      const moved = traders.filter((trader) => trader.moved).length;
      const resent = traders.reduce((sum, trader) => sum + trader.resent, 0);
      console.log(
        `gateway kill: ${saves.length} saves acknowledged, ${moved} traders moved to gateway 1 (${resent} saves without an answer sent again); the SDK's streams went ${statuses.map(({ status }) => status).join(' > ')}, both live again ${Math.round(liveAgainMs)} ms after the kill`,
      );
      expect(statuses.filter(({ status }) => status === 'reconnecting').length).toBeGreaterThanOrEqual(2);
      expect(moved).toBe(2);
      await expectStoredOnce(database.url(), saves);
      await expectStreamsShowStore(cluster, database.url(), depth, events, own.account);
    } finally {
      await Promise.all(streams.map((stream) => stream.close()));
    }
  }, 90_000);
});

/** Every acknowledged order is stored under the id its save answered, created once. */
async function expectStoredOnce(databaseUrl: string, saves: readonly number[][]): Promise<void> {
  const store = await openPostgresStore({ url: databaseUrl });
  try {
    const ids = saves.flat();
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(ROUNDS * 4 * 2);
    const created = async (id: number) => (await store.orders.history(id)).filter((event) => event.type === 'CREATED').length;
    for (const id of ids) expect(await created(id)).toBe(1);
  } finally {
    await store.close();
  }
}

/** The SDK's depth books are the books the store holds, and its open orders the account's open orders in the store. */
async function expectStreamsShowStore(
  cluster: TestCluster,
  databaseUrl: string,
  depth: ReturnType<typeof watchDepth>,
  events: ReturnType<typeof watchUserEvents>,
  account: string,
): Promise<void> {
  const { registry } = cluster.host(1).services;
  for (const [bookId, stored] of await storedDepths(databaseUrl, [1, 2])) {
    const grid = registry.get(bookId)?.grid;
    if (grid === undefined) throw new Error(`no book ${bookId}`);
    const expected = JSON.stringify([
      stored.bids.map((level) => displayLevel(grid, level)),
      stored.asks.map((level) => displayLevel(grid, level)),
    ]);
    const streamed = () => {
      const book = depth.book(bookId);
      return book !== undefined && JSON.stringify([book.bids(), book.asks()]) === expected ? true : undefined;
    };
    await until(streamed, `the SDK's book ${bookId} to match the store`, 10_000);
  }
  const store = await openPostgresStore({ url: databaseUrl });
  try {
    const ids = (orders: Iterable<number>) => [...orders].sort((a, b) => a - b);
    const open = ids((await store.orders.openOrders()).filter((order) => order.account === account).map((order) => order.id));
    const tracked = () => (JSON.stringify(ids(events.orders().keys())) === JSON.stringify(open) ? true : undefined);
    await until(tracked, "the SDK's open orders to match the store", 10_000).catch(() => {});
    // On a mismatch, the diff names the orders the stream lost or kept.
    expect(ids(events.orders().keys())).toEqual(open);
  } finally {
    await store.close();
  }
}
