import type { AmmAdmin, DevnetFunding } from '@dex/server';
import { type Address, getAddress } from 'viem';
import type { LiquidityAccount } from './liquidity-account.js';
import type { SeededPool } from './pool-plan.js';

/** The farm's rates when it has none: 0.1 SAUCE (6 decimals) and 0.001 HBAR (wei: 18 decimals) a second. */
export const FARM_EMISSIONS = { saucePerSecond: 100_000n, nativePerSecond: 10n ** 15n } as const;
/** The farm holds native coin for this long at its rate (365 days), topped up when half is gone. */
export const FARM_RUNWAY_SECONDS = 365n * 24n * 3600n;

/** A seeded pool on the chain: its tokens, pair (its LP token) and farm pool. */
export interface LivePool {
  readonly base: Address;
  readonly quote: Address;
  readonly pair: Address;
  readonly pid: bigint;
}

export interface SeedingOutcome {
  readonly pools: LivePool[];
  /** Pools this run gave their first liquidity (none after the first boot). */
  readonly created: number;
  /** Farm pools this run added. */
  readonly farmed: number;
}

/**
 * Funds the liquidity account through the issuer: a balance of a token under what the plan's pools
 * take of it is brought up to twice that, so after seeding the account holds as much again as it
 * put in the pools (the stock its drift swaps and deposits take from).
 */
export async function topUpLiquidity(
  account: LiquidityAccount,
  issuer: DevnetFunding,
  plan: readonly SeededPool[],
): Promise<void> {
  const targets = new Map<Address, bigint>();
  for (const pool of plan) {
    for (const [token, amount] of [
      [pool.base.evmAddress, pool.amountBase],
      [pool.quote.evmAddress, pool.amountQuote],
    ] as const) {
      const address = getAddress(token);
      targets.set(address, (targets.get(address) ?? 0n) + 2n * amount);
    }
  }
  const short: { token: string; amount: bigint }[] = [];
  for (const [token, target] of targets) {
    const balance = await account.balanceOf(token);
    if (balance < target / 2n) short.push({ token, amount: target - balance });
  }
  if (short.length > 0) await issuer.fund(account.address, short);
}

/**
 * Seeds the devnet's pools, idempotently: the liquidity account gives each planned pool without
 * reserves its first liquidity through the router (a pool that has reserves is left as it is), the
 * farm gets a pool for each pair's LP token (with the plan's allocation points), its emissions when
 * it has none, and native coin for FARM_RUNWAY_SECONDS; the account stakes every LP token it holds,
 * and a share of its SAUCE for xSAUCE.
 */
export async function seedPools(
  account: LiquidityAccount,
  admin: AmmAdmin,
  issuer: DevnetFunding,
  plan: readonly SeededPool[],
): Promise<SeedingOutcome> {
  await topUpLiquidity(account, issuer, plan);
  let created = 0;
  const pairs: { pool: SeededPool; base: Address; quote: Address; pair: Address }[] = [];
  for (const pool of plan) {
    const [base, quote] = [getAddress(pool.base.evmAddress), getAddress(pool.quote.evmAddress)];
    const existing = await account.pairOf(base, quote);
    const [reserveBase, reserveQuote] = existing === null ? [0n, 0n] : await account.reserves(existing, base);
    let pair = existing;
    if (reserveBase === 0n && reserveQuote === 0n) {
      await account.approve(base, account.amm.router);
      await account.approve(quote, account.amm.router);
      pair = await account.addLiquidity(base, quote, pool.amountBase, pool.amountQuote);
      created++;
    }
    if (pair === null) throw new Error(`no pair of ${base} and ${quote}`);
    pairs.push({ pool, base, quote, pair });
  }
  let farmed = 0;
  const pools: LivePool[] = [];
  for (const { pool, base, quote, pair } of pairs) {
    let pid = await account.farmPoolOf(pair);
    if (pid === null) {
      pid = BigInt((await admin.addFarm(pair, pool.allocPoint)).pid);
      farmed++;
    }
    // Both for the drift: the farm takes LP stakes, the router LP being removed.
    await account.approve(pair, account.amm.farm);
    await account.approve(pair, account.amm.router);
    const held = await account.balanceOf(pair);
    if (held > 0n) await account.deposit(pid, held);
    pools.push({ base, quote, pair, pid });
  }
  await fundFarm(admin);
  await stakeSauce(account);
  return { pools, created, farmed };
}

/** The share of its SAUCE the liquidity account stakes for xSAUCE, once. */
export const STAKED_SAUCE_DIVISOR = 40n;

/** Stakes a fortieth of the account's SAUCE in single-sided staking, unless it holds xSAUCE already. */
async function stakeSauce(account: LiquidityAccount): Promise<void> {
  if ((await account.xSauce()) > 0n) return;
  const amount = (await account.balanceOf(await account.sauce())) / STAKED_SAUCE_DIVISOR;
  if (amount > 0n) await account.enterStaking(amount);
}

/** Emissions when the farm has none (a rate the operator set is kept), and coin for its runway. */
async function fundFarm(admin: AmmAdmin): Promise<void> {
  let farm = await admin.farm();
  if (farm.saucePerSecond === 0n && farm.nativePerSecond === 0n) {
    await admin.setEmissions(FARM_EMISSIONS.saucePerSecond, FARM_EMISSIONS.nativePerSecond);
    farm = await admin.farm();
  }
  const runway = farm.nativePerSecond * FARM_RUNWAY_SECONDS;
  if (farm.nativeBalance < runway / 2n) await admin.fundFarm(runway - farm.nativeBalance);
}
