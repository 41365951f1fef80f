import type { DevnetWallet } from '@dex/contracts';
import type { Address } from 'viem';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../ports/logger.js';
import type { PairLedgerIds } from '../../../ports/pair-ledger-ids.js';
import type { Store } from '../../../ports/store/ports.js';
import { AmmChain } from '../../../test-support/amm-chain.js';
import { describeEachEngine } from '../../../test-support/store-engines.js';
import { devnetPairLedgerIds } from '../devnet/devnet-pair-ids.js';
import { AmmIndexer } from './amm-indexer.js';
import { ChainWatch } from './chain-watch.js';

const E6 = 1_000_000n;
const E8 = 100_000_000n;
const WEI_PER_TINYBAR = 10n ** 10n;
const quiet: Logger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as unknown as Logger;

let chain: AmmChain;
let base: Address;

beforeAll(async () => {
  chain = await AmmChain.start();
}, 60_000);
afterAll(async () => {
  await chain?.stop();
});

describeEachEngine('the AMM indexer', (stores) => {
  // Every test starts from the chain with the AMM deployed and nothing in it, and an empty store.
  let store: Store;
  let indexer: AmmIndexer;

  beforeEach(async () => {
    base = await chain.clients.test.snapshot();
    store = await stores.open();
    indexer = new AmmIndexer(chain.context, chain.amm, store, quiet, devnetPairLedgerIds);
  });
  afterEach(async () => {
    await store.close();
    await chain.clients.test.revert({ id: base });
  });

  /** The recorded pool's reserves and LP supply. */
  async function recorded(poolId: number) {
    const pool = await store.pools.get(poolId);
    if (pool === undefined) throw new Error(`pool ${poolId} not recorded`);
    return { reserveA: pool.tokenReserveA, reserveB: pool.tokenReserveB, lpSupply: pool.lpTokenReserve };
  }

  async function swapsOf(poolId: number) {
    const candles = await store.poolCandles.range(poolId, 0, Number.MAX_SAFE_INTEGER);
    return candles.reduce(
      (sum, candle) => ({
        swaps: sum.swaps + candle.swaps,
        aIn: sum.aIn + candle.aIn,
        bIn: sum.bIn + candle.bIn,
        aOut: sum.aOut + candle.aOut,
        bOut: sum.bOut + candle.bOut,
      }),
      { swaps: 0, aIn: 0n, bIn: 0n, aOut: 0n, bOut: 0n },
    );
  }

  describe('AmmIndexer: pools', () => {
    it('records a pool as the factory created it and its reserves and LP supply exactly after a mint, a swap and a burn', async () => {
      const provider = await chain.wallet();
      await chain.addLiquidity(provider, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await indexer.catchUp();
      const pair = await chain.pairOf('WHBAR', 'USDC');
      expect(await store.pools.get(1)).toMatchObject({
        id: 1,
        // The devnet numbers its pairs from 0.0.1000000001; a pair is its own LP token.
        contractId: '0.0.1000000001',
        lpTokenId: '0.0.1000000001',
        lpTokenName: 'SaucerSwap LP Token',
        lpTokenSymbol: 'SSLP',
        lpTokenDecimals: 8,
        // token0 is the lower address: WHBAR's long-zero 0x...03e9 before USDC's 0x...03ea.
        tokenAId: '0.0.1001',
        tokenBId: '0.0.1002',
      });
      expect(await recorded(1)).toEqual(await chain.pairState(pair));

      const before = await chain.pairState(pair);
      await chain.swap(provider, 'WHBAR', 'USDC', 10n * E8);
      await indexer.catchUp();
      const after = await chain.pairState(pair);
      expect(await recorded(1)).toEqual(after);
      expect(await swapsOf(1)).toEqual({ swaps: 1, aIn: 10n * E8, bIn: 0n, aOut: 0n, bOut: before.reserveB - after.reserveB });

      await chain.removeLiquidity(provider, 'WHBAR', 'USDC', (await chain.lpBalance(pair, provider.account.address)) / 3n);
      await indexer.catchUp();
      expect(await recorded(1)).toEqual(await chain.pairState(pair));
      expect((await store.amm.cursor(indexer.cursorName)) ?? -1n).toBe(await chain.head());
    });

    it('numbers pools by the factory index plus one', async () => {
      const provider = await chain.wallet();
      await chain.addLiquidity(provider, 'SAUCE', 'USDC', 1_000n * E6, 50n * E6);
      await chain.addLiquidity(provider, 'WHBAR', 'SAUCE', 100n * E8, 400n * E6);
      await indexer.catchUp();
      const pools = await store.pools.list();
      expect(pools.map((pool) => [pool.id, pool.tokenAId, pool.tokenBId, pool.contractId])).toEqual([
        [1, '0.0.1002', '0.0.1003', '0.0.1000000001'],
        [2, '0.0.1001', '0.0.1003', '0.0.1000000002'],
      ]);
    });

    it('records nothing of a new pair until its ledger id is known, then reads the same blocks again', async () => {
      const provider = await chain.wallet();
      await chain.addLiquidity(provider, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      const unknownYet: PairLedgerIds = {
        idOf: async () => {
          throw new Error('the mirror node does not know the contract yet');
        },
      };
      await expect(new AmmIndexer(chain.context, chain.amm, store, quiet, unknownYet).catchUp()).rejects.toThrow(/yet/);
      expect(await store.pools.list()).toEqual([]);
      // The blocks before the pair's are recorded; the pair's block is read again next time.
      expect((await store.amm.cursor(indexer.cursorName)) ?? -1n).toBeLessThan(await chain.head());
      await indexer.catchUp();
      expect((await store.pools.get(1))?.contractId).toBe('0.0.1000000001');
    });

    it('gives pools recorded under their address by an earlier version their ledger ids', async () => {
      const provider = await chain.wallet();
      await chain.addLiquidity(provider, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await chain.addLiquidity(provider, 'SAUCE', 'USDC', 1_000n * E6, 50n * E6);
      const byAddress: PairLedgerIds = { idOf: async ({ address }) => address };
      await new AmmIndexer(chain.context, chain.amm, store, quiet, byAddress).catchUp();
      expect((await store.pools.get(1))?.contractId).toBe((await chain.pairOf('WHBAR', 'USDC')).toLowerCase());
      await indexer.catchUp();
      const pools = await store.pools.list();
      expect(pools.map((pool) => [pool.contractId, pool.lpTokenId])).toEqual([
        ['0.0.1000000001', '0.0.1000000001'],
        ['0.0.1000000002', '0.0.1000000002'],
      ]);
    });
  });

  describe('AmmIndexer: farms and staking', () => {
    async function twoPools(provider: DevnetWallet): Promise<[Address, Address]> {
      await chain.addLiquidity(provider, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await chain.addLiquidity(provider, 'WHBAR', 'SAUCE', 100n * E8, 400n * E6);
      return [await chain.pairOf('WHBAR', 'USDC'), await chain.pairOf('WHBAR', 'SAUCE')];
    }

    it("gives each farm its share of the farm's rates by allocation points, and records each account's stake", async () => {
      const alice = await chain.wallet();
      const bob = await chain.wallet();
      const [first, second] = await twoPools(alice);
      await chain.addLiquidity(bob, 'WHBAR', 'USDC', 100n * E8, 30n * E6);
      await chain.addFarm(100n, first);
      await chain.addFarm(300n, second);
      // A farm of a token that is no pool of the exchange takes its share but is not listed.
      await chain.addFarm(100n, chain.tokens.USDC);
      // 5 SAUCE and 2.5 HBAR a second for the whole farm.
      await chain.setEmissions(5n * E6, (25n * E8 * WEI_PER_TINYBAR) / 10n);
      await chain.deposit(alice, 0n, first, 5n * E8);
      await chain.deposit(bob, 0n, first, 2n * E8);
      await chain.deposit(alice, 1n, second, 1n * E8);
      await chain.withdraw(alice, 0n, 1n * E8);
      await indexer.catchUp();

      expect(await store.farms.list()).toEqual([
        expect.objectContaining({ id: 0, poolId: 1, sauceEmissions: 1n * E6, hbarEmissions: 50_000_000n, totalStaked: 6n * E8 }),
        expect.objectContaining({ id: 1, poolId: 2, sauceEmissions: 3n * E6, hbarEmissions: 150_000_000n, totalStaked: 1n * E8 }),
      ]);
      const stakes = async (wallet: DevnetWallet) =>
        (await store.farms.stakesOf([wallet.account.address.toLowerCase()])).map((stake) => [stake.farmId, stake.staked]);
      expect(await stakes(alice)).toEqual([
        [0, 4n * E8],
        [1, 1n * E8],
      ]);
      expect(await stakes(bob)).toEqual([[0, 2n * E8]]);

      await chain.setAllocation(1n, 0n);
      await chain.withdraw(bob, 0n, 2n * E8);
      await indexer.catchUp();
      expect(
        (await store.farms.list()).map((farm) => [farm.id, farm.sauceEmissions, farm.hbarEmissions, farm.totalStaked]),
      ).toEqual([
        [0, 2_500_000n, 125_000_000n, 4n * E8],
        [1, 0n, 0n, 1n * E8],
      ]);
      // An account that took its whole stake out is in the farm no more.
      expect(await stakes(bob)).toEqual([]);
    });

    it('follows the SAUCE staked and the xSAUCE in existence through entries, rewards and exits', async () => {
      const alice = await chain.wallet();
      const bob = await chain.wallet();
      await chain.enterStaking(alice, 100n * E6);
      await chain.rewardStaking(10n * E6);
      await chain.enterStaking(bob, 55n * E6);
      await chain.leaveStaking(alice, 50n * E6);
      await indexer.catchUp();
      const [sauce, xsauce] = await chain.stakingState();
      // 100 in for 100 shares; 10 reward; 55 buys 50 shares at 1.1; 50 shares take 55 out.
      expect([sauce, xsauce]).toEqual([110n * E6, 100n * E6]);
      expect(await store.amm.stakingTotals()).toEqual({ sauce, xsauce });
      const now = (await chain.latestSeconds()) * 1_000;
      expect(await store.staking.atOrBefore(now)).toEqual({ atMs: now, sauce, xsauce });
    });
  });

  describe('AmmIndexer: lost blocks and restarts', () => {
    it('drops what it recorded from blocks the chain lost and reads the new ones', async () => {
      const alice = await chain.wallet();
      await chain.addLiquidity(alice, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      const pair = await chain.pairOf('WHBAR', 'USDC');
      await chain.addFarm(100n, pair);
      await indexer.catchUp();
      const common = await chain.head();
      const kept = await chain.clients.test.snapshot();
      await chain.swap(alice, 'WHBAR', 'USDC', 10n * E8);
      await chain.deposit(alice, 0n, pair, 1n * E8);
      await chain.enterStaking(alice, 5n * E6);
      await chain.addLiquidity(alice, 'SAUCE', 'USDC', 100n * E6, 5n * E6);
      await indexer.catchUp();
      expect(await store.pools.list()).toHaveLength(2);

      await chain.clients.test.revert({ id: kept });
      await chain.swap(alice, 'USDC', 'WHBAR', 7n * E6);
      await indexer.rewindTo(common);
      await indexer.catchUp();

      expect((await store.pools.list()).map((pool) => pool.id)).toEqual([1]);
      expect(await recorded(1)).toEqual(await chain.pairState(pair));
      expect(await swapsOf(1)).toMatchObject({ swaps: 1, aIn: 0n, bIn: 7n * E6 });
      expect((await store.farms.list()).map((farm) => farm.totalStaked)).toEqual([0n]);
      expect(await store.farms.stakesOf([alice.account.address.toLowerCase()])).toEqual([]);
      expect(await store.amm.stakingTotals()).toEqual({ sauce: 0n, xsauce: 0n });
    });

    it('tells the chain watch the blocks it recorded, so that their loss is found and rewound', async () => {
      const watch = new ChainWatch(chain.clients);
      indexer = new AmmIndexer(chain.context, chain.amm, store, quiet, devnetPairLedgerIds, watch);
      const alice = await chain.wallet();
      await chain.addLiquidity(alice, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await indexer.catchUp();
      expect(await watch.look()).toBeNull();
      const common = await chain.head();
      const kept = await chain.clients.test.snapshot();
      await chain.swap(alice, 'WHBAR', 'USDC', 10n * E8);
      await indexer.catchUp();
      await chain.clients.test.revert({ id: kept });
      // The new chain passes the lost height before anyone looks.
      await chain.clients.test.mine({ blocks: 5 });
      expect(await watch.look()).toBe(common);
      await indexer.rewindTo(common);
      await indexer.catchUp();
      expect(await swapsOf(1)).toMatchObject({ swaps: 0 });
      expect(await recorded(1)).toEqual(await chain.pairState(await chain.pairOf('WHBAR', 'USDC')));
    });

    it('resumes from its cursor after a restart, recording every event once', async () => {
      const alice = await chain.wallet();
      await chain.addLiquidity(alice, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await chain.swap(alice, 'WHBAR', 'USDC', 1n * E8);
      await indexer.catchUp();
      await store.close();

      await chain.swap(alice, 'USDC', 'WHBAR', 3n * E6);
      await chain.swap(alice, 'WHBAR', 'USDC', 2n * E8);
      store = await stores.open();
      indexer = new AmmIndexer(chain.context, chain.amm, store, quiet, devnetPairLedgerIds);
      await indexer.catchUp();
      await indexer.catchUp();
      expect(await recorded(1)).toEqual(await chain.pairState(await chain.pairOf('WHBAR', 'USDC')));
      expect(await swapsOf(1)).toMatchObject({ swaps: 3, aIn: 3n * E8, bIn: 3n * E6 });
    });

    it('writes a run of blocks and its cursor together: a run that fails leaves neither', async () => {
      const alice = await chain.wallet();
      await chain.addLiquidity(alice, 'WHBAR', 'USDC', 1_000n * E8, 250n * E6);
      await indexer.catchUp();
      const cursor = await store.amm.cursor(indexer.cursorName);
      const change = { block: 9_999n, logIndex: 0, atMs: 1, kind: 'SYNC' as const, swap: null };
      const state = { reserveA: 1n, reserveB: 1n, lpSupply: 1n };
      const batch = {
        newPools: [],
        // A change of pool 1 that lands, then one of a pool nobody created: the store refuses the run.
        poolChanges: [
          { ...change, poolId: 1, before: state, after: state },
          { ...change, logIndex: 1, poolId: 7, before: state, after: state },
        ],
        pools: new Map([[1, { ...state, updatedAt: 1 }]]),
        farmEvents: [],
        staking: [{ block: 9_999n, atMs: 1, sauce: 1n, xsauce: 1n }],
        cursorName: indexer.cursorName,
        cursor: 9_999n,
      };
      await expect(store.amm.commit(batch)).rejects.toThrow();
      expect(await store.amm.cursor(indexer.cursorName)).toBe(cursor);
      expect(await recorded(1)).toEqual(await chain.pairState(await chain.pairOf('WHBAR', 'USDC')));
      expect(await store.amm.stakingTotals()).toEqual({ sauce: 0n, xsauce: 0n });
    });
  });
});
