import { AmmFactory, AmmPair, Farm } from '@dex/contracts';
import { devnetIssuer } from '@dex/server';
import { DEVNET_ADDRESS, type Harness, RealTimeClock, startHarness, until } from '@dex/server/test-support';
import { type Address, getAddress, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiquidityAccount } from './liquidity-account.js';
import { DEVNET_REFERENCE_PRICES } from './live-devnet.js';
import { PoolDrift } from './pool-drift.js';
import { type PoolLiquidity, startPoolLiquidity } from './pool-liquidity.js';
import { FARM_EMISSIONS, FARM_RUNWAY_SECONDS } from './pool-seeding.js';

let h: Harness;
const running: PoolLiquidity[] = [];

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock() });
});

afterAll(async () => {
  for (const liquidity of running.splice(0)) await liquidity.stop();
  await h?.close();
});

/** No drift action for a minute: the test reads the pools as seeded. */
const STILL = { minDelayMs: 60_000, maxDelayMs: 60_000, seed: 1 };

async function start(drift = STILL): Promise<PoolDrift> {
  const liquidity = startPoolLiquidity(h.services, devnetIssuer(h.services), DEVNET_REFERENCE_PRICES, h.services.logger, drift);
  running.push(liquidity);
  const started = await liquidity.started;
  if (started === undefined) throw new Error(`the pools did not start: ${h.logs()}`);
  return started;
}

async function stopAll(): Promise<void> {
  for (const liquidity of running.splice(0)) await liquidity.stop();
}

function chain() {
  const settled = h.services.chain;
  if (!settled?.amm || !settled.devnet) throw new Error('no AMM on the devnet chain');
  return { reads: settled.public, amm: settled.amm, devnet: settled.devnet };
}

const WHBAR = getAddress(DEVNET_ADDRESS.WHBAR);
const USDC = getAddress(DEVNET_ADDRESS.USDC);
const SAUCE = getAddress(DEVNET_ADDRESS.SAUCE);

/** Reserves of the pool of (a, b), in that order. */
async function reserves(a: Address, b: Address): Promise<[bigint, bigint]> {
  const { reads, amm } = chain();
  const pair = await reads.readContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'getPair', args: [a, b] });
  const [token0, [r0, r1]] = await Promise.all([
    reads.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token0' }),
    reads.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' }),
  ]);
  return getAddress(token0) === a ? [r0, r1] : [r1, r0];
}

async function farmState() {
  const { reads, amm } = chain();
  const read = <name extends 'poolLength' | 'saucePerSecond' | 'nativePerSecond'>(functionName: name) =>
    reads.readContract({ address: amm.farm, abi: Farm.abi, functionName });
  const count = await read('poolLength');
  const pools = await Promise.all(
    Array.from({ length: Number(count) }, (_, pid) =>
      reads.readContract({ address: amm.farm, abi: Farm.abi, functionName: 'poolInfo', args: [BigInt(pid)] }),
    ),
  );
  return {
    pools: pools.map(([lpToken, allocPoint, , , , totalStaked]) => ({ lpToken, allocPoint, totalStaked })),
    saucePerSecond: await read('saucePerSecond'),
    nativePerSecond: await read('nativePerSecond'),
    balance: await reads.getBalance({ address: amm.farm }),
  };
}

const E6 = 10n ** 6n;
const E8 = 10n ** 8n;

describe('the live devnet pools', () => {
  it('are seeded at the reference prices, about 200,000 USD each, staked in farm pools of weights 2/1/1 with emissions and a year of coin', async () => {
    await start();
    // 100,000 USD a side: WHBAR at 0.25, USDC at 1, SAUCE at 0.05.
    expect(await reserves(WHBAR, USDC)).toEqual([400_000n * E8, 100_000n * E6]);
    expect(await reserves(SAUCE, USDC)).toEqual([2_000_000n * E6, 100_000n * E6]);
    expect(await reserves(SAUCE, WHBAR)).toEqual([2_000_000n * E6, 400_000n * E8]);
    const farm = await farmState();
    expect(farm.pools.map((pool) => pool.allocPoint)).toEqual([2n, 1n, 1n]);
    expect(farm.saucePerSecond).toBe(FARM_EMISSIONS.saucePerSecond);
    expect(farm.nativePerSecond).toBe(10n ** 15n);
    expect(farm.balance).toBeGreaterThanOrEqual((FARM_EMISSIONS.nativePerSecond * FARM_RUNWAY_SECONDS * 99n) / 100n);
    // Every LP token of the liquidity account is staked: its pool's whole supply but the locked 1000 units.
    const { reads } = chain();
    for (const pool of farm.pools) {
      const supply = await reads.readContract({ address: pool.lpToken, abi: AmmPair.abi, functionName: 'totalSupply' });
      expect(pool.totalStaked).toBe(supply - 1_000n);
    }
    expect(h.logs()).toContain('seeded the devnet pools and farms');
    // A fortieth of its SAUCE is staked for xSAUCE, at 1:1 on an empty staking contract.
    const account = await LiquidityAccount.open(h.services, chain().devnet, chain().amm);
    const staked = await account.stakedSauceTotal();
    expect(staked).toBeGreaterThan(0n);
    expect(await account.xSauce()).toBe(staked);
  });

  it('are not seeded again by a restart: same pools, farm pools and reserves', async () => {
    await stopAll();
    const before = { pools: await farmState(), reserves: await reserves(WHBAR, USDC) };
    await h.restart();
    await start();
    expect(await farmState()).toEqual({ ...before.pools, balance: expect.any(BigInt) });
    expect(await reserves(WHBAR, USDC)).toEqual(before.reserves);
    expect(h.logs()).toContain('the devnet pools are seeded already');
  });

  it('drift: the liquidity account swaps both ways on the pools, adds and removes a little liquidity and rewards SAUCE stakers, without failures', async () => {
    await stopAll();
    const from = await chain().reads.getBlockNumber();
    const drift = await start({ minDelayMs: 1, maxDelayMs: 20, seed: 7 });
    await until(
      async () =>
        drift.stats.swaps >= 6 && drift.stats.deposits > 0 && drift.stats.withdrawals > 0 && drift.stats.rewards > 0
          ? true
          : undefined,
      'swaps, a deposit, a withdrawal and a reward',
      40_000,
    );
    await stopAll();
    expect(drift.stats.failures).toBe(0);
    const { reads } = chain();
    const logs = await reads.getLogs({ fromBlock: from + 1n });
    const swaps = parseEventLogs({ abi: AmmPair.abi, logs, eventName: 'Swap' });
    expect(swaps.length).toBe(drift.stats.swaps);
    // Both ways: some swaps pay token0 in, some token1.
    expect(swaps.some((swap) => swap.args.amount0In > 0n)).toBe(true);
    expect(swaps.some((swap) => swap.args.amount1In > 0n)).toBe(true);
    const account = await LiquidityAccount.open(h.services, chain().devnet, chain().amm);
    expect(swaps.every((swap) => getAddress(swap.args.to) === account.address)).toBe(true);
    // Rewards went to the stakers: the SAUCE behind each xSAUCE grew past 1:1.
    expect(await account.stakedSauceTotal()).toBeGreaterThan(await account.xSauce());
  });

  it('drift: a failed action is logged and counted, and the next one comes', async () => {
    await stopAll();
    const account = await LiquidityAccount.open(h.services, chain().devnet, chain().amm);
    const gone = getAddress('0x00000000000000000000000000000000000dead1');
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };
    const drift = new PoolDrift(account, [{ base: WHBAR, quote: USDC, pair: gone, pid: 9n }], async () => {}, logger, {
      minDelayMs: 1,
      maxDelayMs: 5,
      seed: 3,
    });
    drift.start();
    await until(() => (drift.stats.failures >= 2 ? true : undefined), 'two failed actions', 10_000);
    await drift.stop();
    expect(warnings.every((message) => message === 'pool drift failed')).toBe(true);
    expect(drift.stats.swaps + drift.stats.deposits + drift.stats.withdrawals).toBe(0);
  });
});
