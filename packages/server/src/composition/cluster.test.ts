import { BUY, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DepthDiffMessage, ServerMessage } from '../edges/ws/protocol.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.js';
import { NATS_AVAILABLE } from '../test-support/nats.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../test-support/store-engines.js';
import { StreamClient, streamUrl } from '../test-support/stream-client.js';
import { Trader } from '../test-support/trader.js';
import { until } from '../test-support/until.js';

interface DepthBody {
  readonly bids: [string, string][];
  readonly asks: [string, string][];
  readonly lastUpdateId: number;
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)('a cluster: two engines and two gateways on PostgreSQL and NATS', () => {
  const database = usePostgresDatabase('each', 'cluster');
  let cluster: TestCluster;

  beforeEach(async () => {
    cluster = await startTestCluster(database.url(), { shards: 2, gateways: 2 });
  });
  afterEach(async () => {
    await cluster.close();
  });

  const depthOn = async (gateway: number, bookId: number): Promise<DepthBody> =>
    (await cluster.host(gateway).app.inject({ method: 'GET', url: `/depth/${bookId}` })).json() as DepthBody;

  it("saves a batch over books of both shards through one gateway, and every gateway's depth shows it", async () => {
    const maker = await Trader.secp256k1(cluster.host(0));
    const saved = await maker.place([maker.limitRequest(1, SELL, 25_000, 20), maker.limitRequest(2, SELL, 100_000, 10)]);
    // Each engine numbers orders with its own residue: book 1 is shard 1's, book 2 shard 0's.
    expect(saved.map((meta) => meta.id % 2)).toEqual([1, 0]);
    for (const gateway of [0, 1]) {
      await until(
        async () => ((await depthOn(gateway, 1)).asks.length === 1 ? true : undefined),
        `book 1 on gateway ${gateway}`,
        5_000,
      );
      await until(
        async () => ((await depthOn(gateway, 2)).asks.length === 1 ? true : undefined),
        `book 2 on gateway ${gateway}`,
        5_000,
      );
    }
    expect((await depthOn(1, 1)).asks).toEqual([['0.25', '2']]);
  });

  it('matches a taker on another gateway against the maker, and lists both orders from either gateway', async () => {
    const maker = await Trader.secp256k1(cluster.host(0));
    await maker.limit(1, SELL, 25_000, 20);
    const taker = await Trader.secp256k1(cluster.host(1));
    const taken = await taker.limit(1, BUY, 25_000, 5);
    expect(taken.status).toBe('FILLED');
    const listed = await maker.request<{ orders: { status: string }[] }>('GET', '/orders');
    expect(listed.body.orders.map((order) => order.status)).toEqual(['PARTIALLY_FILLED']);
    await until(async () => ((await depthOn(0, 1)).asks[0]?.[1] === '1.5' ? true : undefined), 'the fill on the depth', 5_000);
  });

  it('cancels through a gateway on the engine of the order, and its level leaves every depth', async () => {
    const maker = await Trader.secp256k1(cluster.host(1));
    const { id } = await maker.limit(2, SELL, 100_000, 10);
    const reply = await maker.request<{ accepted: string[] }>('POST', '/cancel', { orderIds: [String(id)] });
    expect(reply.status).toBe(202);
    expect(reply.body.accepted.map(Number)).toEqual([id]);
    await until(async () => ((await depthOn(0, 2)).asks.length === 0 ? true : undefined), 'the cancel on the depth', 5_000);
  });

  it('rebuilds a restarted engine to the state hash it stopped with, and it goes on from its stored position', async () => {
    const maker = await Trader.secp256k1(cluster.host(0));
    const taker = await Trader.secp256k1(cluster.host(1));
    await maker.place([maker.limitRequest(1, SELL, 25_000, 20), maker.limitRequest(1, SELL, 25_100, 30)]);
    await taker.limit(1, BUY, 25_100, 25);
    const before = cluster.engines[1]?.engines.engine(1)?.stateHash();
    await cluster.stopEngine(1);
    await cluster.startEngine(1);
    expect(cluster.engines[1]?.engines.engine(1)?.stateHash()).toBe(before);
    await taker.limit(1, BUY, 25_100, 5);
    expect(cluster.engines[1]?.engines.engine(1)?.depth().asks).toEqual([[25_100n, 20]]);
  });

  it("streams a save on one gateway to the depth followers of the other, and to the owner's user stream there", async () => {
    const maker = await Trader.secp256k1(cluster.host(0));
    const other = cluster.gateways[1]?.url as string;
    const depth = await StreamClient.open(streamUrl(other, 'depth', { token: maker.token, books: '2' }));
    const user = await StreamClient.open(streamUrl(other, 'user-events', { token: maker.token }));
    try {
      const { id } = await maker.limit(2, SELL, 100_000, 10);
      const diff = await depth.waitFor((message: ServerMessage): message is DepthDiffMessage => message.type === 'DEPTH_DIFF');
      expect(diff).toMatchObject({ orderbookId: '2', asks: [['1', '10']], bids: [] });
      const event = await user.waitFor((message) => JSON.stringify(message).includes(`"${id}"`));
      expect(event).toBeDefined();
    } finally {
      await depth.close();
      await user.close();
    }
  });

  it('answers ENGINE_UNAVAILABLE with the hashes while an engine is down, and saves the same orders once it is back', async () => {
    const maker = await Trader.secp256k1(cluster.host(0));
    const built = await maker.build([maker.limitRequest(1, SELL, 25_000, 20)]);
    await cluster.stopEngine(1);
    const down = await maker.save(built);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    await cluster.startEngine(1);
    // The command sent while the engine was down waited in its log, so the order may be stored already: the retry answers it either way.
    const again = await maker.save(built);
    expect(again.status).toBe(200);
    const listed = await maker.request<{ orders: unknown[] }>('GET', '/orders');
    expect(listed.body.orders).toHaveLength(1);
  });
});
