import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { SELL } from '@dex/core';
import { type SettlementProof, verifySettlementProof } from '@dex/sdk';
import { getAddress, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../../packages/server/src/test-support/harness.js';
import { until } from '../../packages/server/src/test-support/until.js';
import { type ExternalChain, reactorEventsOf, startExternalChain } from './external-chain.js';
import { cancelFinal, cancelledOnChain, cross, onboardedTrader, settledTape, startServiceOnChain } from './service-on-chain.js';

/**
 * The production path, CHAIN=rpc, on a chain the service did not start: a node of the test's own
 * (a block every 2 s, as the ledger), the contracts deployed by `dex-operator chain deploy`, tokens
 * and a book added by the operator CLI, traders that onboard through Permit2 only.
 */
let dir: string;
let chain: ExternalChain;
let h: Harness;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'rpc-chain-'));
  chain = await startExternalChain(dir);
  h = await startServiceOnChain(chain, chain.node.rpcUrl);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await chain?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

let trades = 0;

/** A crossing pair of orders, and the transaction that settled it (the tape's newest trade). */
async function tradeOnce(maker: Awaited<ReturnType<typeof onboardedTrader>>, taker: typeof maker): Promise<Hex> {
  await cross(maker, taker);
  trades += 1;
  const [newest] = await settledTape(h, trades);
  return newest?.transactionHash as Hex;
}

describe('the service on a chain it did not start (CHAIN=rpc)', { timeout: 120_000 }, () => {
  it('trades and settles: the fill transaction holds the live TakerFill and MakerFill, and its proof checks out against the node', async () => {
    const hash = await tradeOnce(await onboardedTrader(h, chain), await onboardedTrader(h, chain));
    expect(await reactorEventsOf(chain, hash)).toEqual(expect.arrayContaining(['MakerFill', 'TakerFill', 'Filled']));
    const proof = (await h.app.inject({ method: 'GET', url: `/settlements/${hash}` })).json() as SettlementProof;
    expect(await verifySettlementProof({ proof, chain: chain.node.rpcUrl })).toMatchObject({ checkedBy: 'receipt' });
  });

  it('takes an API cancel and a nonce floor to the chain', async () => {
    const maker = await onboardedTrader(h, chain);
    const ask = await maker.limit(1, SELL, 12_000, 1_000);
    expect((await maker.request('POST', '/cancel', { orderIds: [ask.id] })).status).toBe(202);
    await cancelFinal(maker, ask.id);
    expect(await cancelledOnChain(chain, maker.swapper)).toHaveLength(1);

    const floor = 10n ** 12n;
    expect((await maker.request('POST', '/cancel/all', { nonceFloor: floor.toString() })).status).toBe(202);
    await until(
      async () => {
        const onChain = await chain.clients.public.readContract({
          address: chain.deployment.reactor.address,
          abi: PartialFillLimitOrderReactor.abi,
          functionName: 'nonceFloor',
          args: [getAddress(maker.swapper)],
        });
        return onChain === floor ? onChain : undefined;
      },
      'the floor on the reactor',
      60_000,
      250,
    );
  });

  it('settles on after the service restarts, and after the node restarts from its state', async () => {
    const maker = await onboardedTrader(h, chain);
    const taker = await onboardedTrader(h, chain);
    await h.restart();
    await maker.login();
    await taker.login();
    expect(await reactorEventsOf(chain, await tradeOnce(maker, taker))).toContain('TakerFill');
    await chain.restart();
    expect(await reactorEventsOf(chain, await tradeOnce(maker, taker))).toContain('TakerFill');
  });
});
