import { BUY, SELL } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCluster, type TestCluster } from '../test-support/cluster.js';
import { fund, tokenBalance } from '../test-support/funded-trader.js';
import { NATS_AVAILABLE } from '../test-support/nats.js';
import { POSTGRES_AVAILABLE, usePostgresDatabase } from '../test-support/store-engines.js';
import { Trader } from '../test-support/trader.js';
import { until } from '../test-support/until.js';

interface TapeBody {
  readonly trades: { readonly id: number; readonly transactionHash: string }[];
}

interface HistoryBody {
  readonly events: { readonly type: string; readonly reason: string | null; readonly txHash: string | null }[];
}

describe.skipIf(!POSTGRES_AVAILABLE || !NATS_AVAILABLE)(
  'a cluster settling on the devnet chain: two engines, two settlers (one active), two gateways',
  () => {
    const database = usePostgresDatabase('all', 'cluster_settlement');
    let cluster: TestCluster;

    beforeAll(async () => {
      cluster = await startTestCluster(database.url(), { shards: 2, gateways: 2, settlers: 2 });
    }, 60_000);
    afterAll(async () => {
      await cluster?.close();
    });

    const fundedOn = async (gateway: number) => fund(cluster.host(gateway), await Trader.secp256k1(cluster.host(gateway)));

    it('signs in the domain of the reactor the active settler deployed, on every gateway', async () => {
      const reactor = cluster.host(0).services.chain?.reactor.toLowerCase();
      for (const gateway of [0, 1]) {
        const reply = await cluster.host(gateway).app.inject({ method: 'GET', url: '/signature/domain' });
        expect(reply.json()).toMatchObject({ verifyingContract: reactor });
      }
    });

    it('settles a fill matched across gateways on the chain: the tape carries its hash and the balances moved by it', async () => {
      const maker = await fundedOn(0);
      const taker = await fundedOn(1);
      const { store } = cluster.host(0).services;
      const book = (await store.books.list()).find((record) => record.id === 1);
      const quote = (await store.tokens.list()).find((token) => token.id === book?.quoteTokenId);
      if (quote === undefined) throw new Error('no quote token of book 1');
      const makerBefore = await tokenBalance(cluster.host(0), quote.evmAddress, maker.swapper);
      await maker.limit(1, SELL, 25_000, 20);
      expect((await taker.limit(1, BUY, 25_000, 8)).status).toBe('FILLED');
      const tape = await until(
        async () => {
          const reply = await cluster.host(1).app.inject({ method: 'GET', url: '/trades/1?limit=10' });
          const [trade] = (reply.json() as TapeBody).trades;
          // Unsettled fills carry an empty hash.
          return trade?.transactionHash ? trade : undefined;
        },
        'the fill to be settled',
        20_000,
        100,
      );
      expect(tape?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(await tokenBalance(cluster.host(0), quote.evmAddress, maker.swapper)).toBeGreaterThan(makerBefore);
    });

    it('cancels with on-chain finality: the engine waits for the reactor, the settler relays and confirms', async () => {
      const maker = await fundedOn(1);
      const ask = await maker.limit(2, SELL, 100_000, 10);
      expect((await maker.request('POST', '/cancel', { orderIds: [ask.id] })).status).toBe(202);
      const canceled = await until(
        async () =>
          (await maker.request<HistoryBody>('GET', `/orders/${ask.id}/history`)).body.events.find(
            (event) => event.type === 'CANCELED',
          ),
        'the cancellation to be final',
        20_000,
        100,
      );
      expect(canceled).toMatchObject({ reason: 'USER', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    });

    it('refuses on a gateway an order the wallet cannot pay for, read from the chain', async () => {
      const unfunded = await Trader.secp256k1(cluster.host(1));
      const refused = await unfunded.save(await unfunded.build([unfunded.limitRequest(2, SELL, 100_000, 10)]));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    });
  },
);
