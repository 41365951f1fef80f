import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import { getAbiItem, getAddress, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, ManualClock, startHarness, Trader } from '../../packages/server/src/test-support/harness.js';
import { GRID, operator } from '../../packages/server/src/test-support/operator-cli.js';
import { until } from '../../packages/server/src/test-support/until.js';
import { CHAIN_ID, type ExternalChain, fundAndOnboard, reactorEventsOf, startExternalChain } from './external-chain.js';

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
  h = await startHarness(
    {
      CHAIN: 'rpc',
      CHAIN_RPC_URL: chain.node.rpcUrl,
      CHAIN_ID: String(CHAIN_ID),
      CHAIN_DEPLOYMENT: chain.deploymentFile,
      OPERATOR_PRIVATE_KEY: chain.deployerKey,
      SEED_DEVNET: 'false',
    },
    { clock: new ManualClock(Date.now()) },
  );
  const cli = operator(h.services.store, h.clock);
  for (const [index, token] of chain.tokens.entries()) {
    const added = await cli(
      'token',
      'add',
      '--id',
      `0.0.${5_001 + index}`,
      '--evm',
      token.address,
      '--symbol',
      token.symbol,
      '--name',
      token.symbol,
      '--decimals',
      String(token.decimals),
    );
    if (added.code !== 0) throw new Error(added.err);
  }
  const book = await cli('book', 'add', '--base', 'AAA', '--quote', 'BBB', ...GRID);
  if (book.code !== 0) throw new Error(book.err);
  // The operator wrote through the service's own connection: a reload, not a poll for others' changes.
  await h.services.registry.load();
  if (h.services.registry.get(1) === undefined) throw new Error('the service has no book 1');
}, 120_000);

afterAll(async () => {
  await h?.close();
  await chain?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** A trader of a fresh key, funded and onboarded on the chain through Permit2. */
async function onboardedTrader(): Promise<Trader> {
  const key = generatePrivateKey();
  await fundAndOnboard(chain, key, 1_000n);
  return Trader.secp256k1(h, key);
}

/** The transaction the tape names for the book's newest trade, once it has one. */
async function settledHash(count: number): Promise<Hex> {
  return until(
    async () => {
      h.services.settlement?.settler.wake();
      h.clock.advance(2_000);
      const reply = await h.app.inject({ method: 'GET', url: '/trades/1?limit=100' });
      const trades = (reply.json() as { trades: { transactionHash: string | null }[] }).trades;
      const hash = trades[0]?.transactionHash;
      return trades.length >= count && typeof hash === 'string' && hash.startsWith('0x') ? (hash as Hex) : undefined;
    },
    'the trade to settle',
    60_000,
    250,
  );
}

async function historyTypes(trader: Trader, id: number): Promise<string[]> {
  const reply = await trader.request<{ events: { type: string }[] }>('GET', `/orders/${id}/history`);
  return reply.body.events.map((event) => event.type);
}

let trades = 0;

/** A crossing pair of orders, and the transaction that settled it. */
async function tradeOnce(maker: Trader, taker: Trader): Promise<Hex> {
  await maker.limit(1, SELL, 10_000, 1_000);
  await taker.limit(1, BUY, 10_000, 1_000);
  trades += 1;
  return settledHash(trades);
}

describe('the service on a chain it did not start (CHAIN=rpc)', { timeout: 120_000 }, () => {
  it('trades and settles: the fill transaction holds the live TakerFill and MakerFill', async () => {
    const maker = await onboardedTrader();
    const taker = await onboardedTrader();
    const hash = await tradeOnce(maker, taker);
    expect(await reactorEventsOf(chain, hash)).toEqual(expect.arrayContaining(['MakerFill', 'TakerFill', 'Filled']));
  });

  it('takes an API cancel and a nonce floor to the chain', async () => {
    const maker = await onboardedTrader();
    const ask = await maker.limit(1, SELL, 12_000, 1_000);
    expect((await maker.request('POST', '/cancel', { orderIds: [ask.id] })).status).toBe(202);
    await until(
      async () => ((await historyTypes(maker, ask.id)).includes('CANCELED') ? true : undefined),
      'the cancel to be final on chain',
      60_000,
      250,
    );
    const cancelled = await chain.clients.public.getLogs({
      address: chain.deployment.reactor.address,
      event: getAbiItem({ abi: PartialFillLimitOrderReactor.abi, name: 'OrderCancelled' }),
      args: { swapper: getAddress(maker.swapper) },
      fromBlock: 0n,
    });
    expect(cancelled).toHaveLength(1);

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
    const maker = await onboardedTrader();
    const taker = await onboardedTrader();
    await h.restart();
    await maker.login();
    await taker.login();
    expect(await reactorEventsOf(chain, await tradeOnce(maker, taker))).toContain('TakerFill');
    await chain.restart();
    expect(await reactorEventsOf(chain, await tradeOnce(maker, taker))).toContain('TakerFill');
  });
});
