import { type Address, maxUint256, parseEventLogs, type TransactionReceipt } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployAmm } from '../src/amm-deployment.js';
import { RefusingStaker } from '../src/generated/artifacts.js';
import {
  AmmFactory,
  AmmPair,
  AmmRouter,
  approveMax,
  associateAs,
  balanceOf,
  Farm,
  latestTime,
  mineAt,
  mined,
  minedAt,
  mintTo,
  newToken,
  Prng,
  revertOf,
  TestToken,
} from './support/amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';
import { ACC_PRECISION, FarmModel, type Paid } from './support/farm-model.js';

const E6 = 1_000_000n;
const E8 = 100_000_000n;
const E18 = 10n ** 18n;

let devnet: TestDevnet;
let operator: Wallet;
let sauce: Address;
/** The next block timestamp free to use: every test moves time forward from here. */
let clock: bigint;

beforeAll(async () => {
  devnet = await startTestDevnet();
  operator = await devnet.newWallet();
  sauce = await newToken(devnet, operator, 'SAUCE', 6);
  clock = (await latestTime(devnet)) + 10n;
});

afterAll(async () => {
  await devnet?.stop();
});

/**
 * A timestamp `seconds` after the last one handed out, or after the latest block if that is
 * later (transactions sent without a chosen time, such as minting, take timestamps of their own).
 */
async function later(seconds = 1n): Promise<bigint> {
  const latest = await latestTime(devnet);
  clock = (clock > latest ? clock : latest) + seconds;
  return clock;
}

/** A fresh farm owned by the operator, allowed to mint SAUCE. */
async function newFarm(): Promise<Address> {
  const farm = await devnet.deploy(operator, Farm, [operator.account.address, sauce]);
  await mined(devnet, operator.writeContract({ address: sauce, abi: TestToken.abi, functionName: 'addMinter', args: [farm] }));
  return farm;
}

/** A wallet holding `amount` of each LP token, approved to the farm, and associated with SAUCE (its rewards). */
async function staker(farm: Address, lpTokens: Address[], amount = 1_000_000n * E8): Promise<Wallet> {
  const wallet = await devnet.newWallet();
  await associateAs(devnet, wallet.account.address, sauce);
  for (const lp of lpTokens) {
    await mintTo(devnet, operator, lp, wallet.account.address, amount);
    await approveMax(devnet, wallet, lp, farm);
  }
  return wallet;
}

const add = (farm: Address, allocPoint: bigint, lp: Address, time: bigint) =>
  minedAt(devnet, time, () =>
    operator.writeContract({ address: farm, abi: Farm.abi, functionName: 'add', args: [allocPoint, lp] }),
  );
const setAlloc = (farm: Address, pid: bigint, allocPoint: bigint, time: bigint) =>
  minedAt(devnet, time, () =>
    operator.writeContract({ address: farm, abi: Farm.abi, functionName: 'set', args: [pid, allocPoint] }),
  );
const setEmissions = (farm: Address, saucePerSecond: bigint, nativePerSecond: bigint, time: bigint) =>
  minedAt(devnet, time, () =>
    operator.writeContract({
      address: farm,
      abi: Farm.abi,
      functionName: 'setEmissions',
      args: [saucePerSecond, nativePerSecond],
    }),
  );
const deposit = (wallet: Wallet, farm: Address, pid: bigint, amount: bigint, time: bigint) =>
  minedAt(devnet, time, () =>
    wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'deposit', args: [pid, amount] }),
  );
const withdraw = (wallet: Wallet, farm: Address, pid: bigint, amount: bigint, time: bigint) =>
  minedAt(devnet, time, () =>
    wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'withdraw', args: [pid, amount] }),
  );
const harvest = (wallet: Wallet, farm: Address, pid: bigint, time: bigint) =>
  minedAt(devnet, time, () => wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'harvest', args: [pid] }));
const fund = (farm: Address, value: bigint, time: bigint) =>
  minedAt(devnet, time, () => operator.sendTransaction({ to: farm, value }));

const pending = async (farm: Address, pid: bigint, account: Address) => ({
  sauce: await devnet.public.readContract({ address: farm, abi: Farm.abi, functionName: 'pendingSauce', args: [pid, account] }),
  native: await devnet.public.readContract({ address: farm, abi: Farm.abi, functionName: 'pendingNative', args: [pid, account] }),
});

const userInfo = async (farm: Address, pid: bigint, account: Address) => {
  const [amount, sauceDebt, nativeDebt, nativeOwed] = await devnet.public.readContract({
    address: farm,
    abi: Farm.abi,
    functionName: 'userInfo',
    args: [pid, account],
  });
  return { amount, sauceDebt, nativeDebt, nativeOwed };
};

/** The Harvest event of a receipt as { sauce, native } (zeros when none). */
function harvested(receipt: TransactionReceipt): { sauce: bigint; native: bigint } {
  const [event] = parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'Harvest' });
  return { sauce: event?.args.sauce ?? 0n, native: event?.args.native ?? 0n };
}

const nativeBalance = (address: Address) => devnet.public.getBalance({ address });
const gasOf = (receipt: TransactionReceipt) => receipt.gasUsed * receipt.effectiveGasPrice;

describe('pools', () => {
  it('adds pools, refusing a duplicate LP token, an unknown pool and anyone but the owner', async () => {
    const farm = await newFarm();
    const lpA = await newToken(devnet, operator, 'LPA', 8);
    const lpB = await newToken(devnet, operator, 'LPB', 8);
    const receipt = await add(farm, 40n, lpA, await later());
    const [added] = parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'PoolAdded' });
    expect(added?.args).toEqual({ pid: 0n, lpToken: lpA, allocPoint: 40n });
    await add(farm, 60n, lpB, await later());
    const read = <const name extends 'poolLength' | 'totalAllocPoint' | 'owner' | 'sauce' | 'ACC_PRECISION'>(
      functionName: name,
    ) => devnet.public.readContract({ address: farm, abi: Farm.abi, functionName });
    expect([await read('poolLength'), await read('totalAllocPoint')]).toEqual([2n, 100n]);
    expect([await read('owner'), await read('sauce'), await read('ACC_PRECISION')]).toEqual([
      operator.account.address,
      sauce,
      ACC_PRECISION,
    ]);
    expect(await devnet.public.readContract({ address: farm, abi: Farm.abi, functionName: 'poolInfo', args: [1n] })).toEqual([
      lpB,
      60n,
      clock,
      0n,
      0n,
      0n,
    ]);

    const set = await setAlloc(farm, 1n, 10n, await later());
    expect(parseEventLogs({ abi: Farm.abi, logs: set.logs, eventName: 'PoolSet' })[0]?.args).toEqual({
      pid: 1n,
      allocPoint: 10n,
    });
    expect(await read('totalAllocPoint')).toBe(50n);

    const write = (wallet: Wallet, call: 'add' | 'set' | 'setEmissions') =>
      call === 'add'
        ? wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'add', args: [1n, lpA] })
        : call === 'set'
          ? wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'set', args: [7n, 1n] })
          : wallet.writeContract({ address: farm, abi: Farm.abi, functionName: 'setEmissions', args: [1n, 1n] });
    expect(await revertOf(write(operator, 'add'))).toEqual({ name: 'DuplicatePool', args: [lpA] });
    expect(await revertOf(write(operator, 'set'))).toEqual({ name: 'UnknownPool', args: [7n] });
    const stranger = await devnet.newWallet();
    for (const call of ['add', 'set', 'setEmissions'] as const) {
      expect((await revertOf(write(stranger, call))).name).toBe('NotOwner');
    }
    const deposit = stranger.writeContract({ address: farm, abi: Farm.abi, functionName: 'deposit', args: [2n, 1n] });
    expect(await revertOf(deposit)).toEqual({ name: 'UnknownPool', args: [2n] });
  });
});

describe('rewards', () => {
  it('splits emissions by allocation points', async () => {
    const farm = await newFarm();
    const lpA = await newToken(devnet, operator, 'LPA', 8);
    const lpB = await newToken(devnet, operator, 'LPB', 8);
    const alice = await staker(farm, [lpA]);
    const bob = await staker(farm, [lpB]);
    const model = new FarmModel();
    const t0 = await later(5n);
    await add(farm, 1n, lpA, t0);
    model.add(1n, t0);
    const t1 = await later();
    await add(farm, 2n, lpB, t1);
    model.add(2n, t1);
    // Stakes that do not divide the rewards evenly, to check the rounding too.
    await deposit(alice, farm, 0n, 7n * E8 + 3n, await later());
    model.deposit(0, alice.account.address, 7n * E8 + 3n, clock);
    await deposit(bob, farm, 1n, 13n * E8 + 1n, await later());
    model.deposit(1, bob.account.address, 13n * E8 + 1n, clock);
    const saucePerSecond = 1_000_003n; // about 1 SAUCE a second for the whole farm
    const nativePerSecond = 10n ** 16n + 7n; // about 0.01 HBAR a second
    const start = await later();
    const emissions = await setEmissions(farm, saucePerSecond, nativePerSecond, start);
    model.setEmissions(saucePerSecond, nativePerSecond, start);
    expect(parseEventLogs({ abi: Farm.abi, logs: emissions.logs, eventName: 'EmissionsSet' })[0]?.args).toEqual({
      saucePerSecond,
      nativePerSecond,
    });
    await fund(farm, 1_000n * E18, await later());
    model.fund(1_000n * E18);

    const seen = await later(1_000n);
    await mineAt(devnet, seen);
    const elapsed = seen - start;
    const [alicePending, bobPending] = [
      await pending(farm, 0n, alice.account.address),
      await pending(farm, 1n, bob.account.address),
    ];
    expect(alicePending).toEqual({
      sauce: model.pendingSauce(0, alice.account.address, seen),
      native: model.pendingNative(0, alice.account.address, seen),
    });
    expect(bobPending).toEqual({
      sauce: model.pendingSauce(1, bob.account.address, seen),
      native: model.pendingNative(1, bob.account.address, seen),
    });
    // A third and two thirds of the farm's rate, each short of the exact share by rounding only.
    const close = (actual: bigint, share: bigint) => expect(share - actual >= 0n && share - actual <= 2n).toBe(true);
    close(alicePending.sauce, (elapsed * saucePerSecond) / 3n);
    close(bobPending.sauce, (elapsed * saucePerSecond * 2n) / 3n);
    close(alicePending.native, (elapsed * nativePerSecond) / 3n);
    close(bobPending.native, (elapsed * nativePerSecond * 2n) / 3n);

    const aliceTime = await later();
    const aliceBalance = await nativeBalance(alice.account.address);
    const receipt = await harvest(alice, farm, 0n, aliceTime);
    const paid = model.harvest(0, alice.account.address, aliceTime);
    expect(harvested(receipt)).toEqual({ sauce: paid.sauce, native: paid.native });
    expect(await balanceOf(devnet, sauce, alice.account.address)).toBe(paid.sauce);
    expect(await nativeBalance(alice.account.address)).toBe(aliceBalance - gasOf(receipt) + paid.native);
    const [event] = parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'Harvest' });
    expect(event?.args).toEqual({ user: alice.account.address, pid: 0n, sauce: paid.sauce, native: paid.native });
    const bobTime = await later();
    const bobPaid = model.harvest(1, bob.account.address, bobTime);
    expect(harvested(await harvest(bob, farm, 1n, bobTime))).toEqual({ sauce: bobPaid.sauce, native: bobPaid.native });
    expect(await balanceOf(devnet, sauce, bob.account.address)).toBe(bobPaid.sauce);
  });

  it('shares a pool by stake and time', async () => {
    const farm = await newFarm();
    const lp = await newToken(devnet, operator, 'LP', 8);
    const alice = await staker(farm, [lp]);
    const bob = await staker(farm, [lp]);
    const rate = 1_000_000n;
    await add(farm, 1n, lp, await later());
    await setEmissions(farm, rate, 0n, await later());
    const t1 = await later(5n);
    await deposit(alice, farm, 0n, 100n * E8, t1);
    await deposit(bob, farm, 0n, 300n * E8, t1 + 10n); // alice alone for 10 s
    const t3 = t1 + 30n; // then 20 s at a quarter
    clock = t3;
    const receipt = await withdraw(alice, farm, 0n, 50n * E8, t3);
    expect(harvested(receipt).sauce).toBe(10n * rate + (20n * rate) / 4n);
    const [event] = parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'Withdraw' });
    expect(event?.args).toEqual({ user: alice.account.address, pid: 0n, amount: 50n * E8 });
    expect(await balanceOf(devnet, lp, alice.account.address)).toBe(1_000_000n * E8 - 50n * E8);
    // Then 40 s with 50 against 300: bob has 20 s at 3/4 and 40 s at 6/7 of the rate.
    const t4 = await later(40n);
    expect(harvested(await harvest(bob, farm, 0n, t4)).sauce).toBe((20n * rate * 3n) / 4n + (40n * rate * 6n) / 7n);
    const t5 = await later();
    expect(harvested(await harvest(alice, farm, 0n, t5)).sauce).toBe((41n * rate) / 7n);
    expect((await userInfo(farm, 0n, alice.account.address)).amount).toBe(50n * E8);
    const refused = alice.writeContract({ address: farm, abi: Farm.abi, functionName: 'withdraw', args: [0n, 50n * E8 + 1n] });
    expect(await revertOf(refused)).toEqual({ name: 'InsufficientStake', args: [50n * E8, 50n * E8 + 1n] });
  });

  it('applies new emission rates, and a new split, from the block that sets them', async () => {
    const farm = await newFarm();
    const lpA = await newToken(devnet, operator, 'LPA', 8);
    const lpB = await newToken(devnet, operator, 'LPB', 8);
    const alice = await staker(farm, [lpA, lpB]);
    await add(farm, 1n, lpA, await later());
    await add(farm, 1n, lpB, await later());
    await deposit(alice, farm, 0n, E8, await later());
    await deposit(alice, farm, 1n, E8, await later());
    const t0 = await later();
    await setEmissions(farm, 2n * E6, 0n, t0);
    const t1 = await later(100n);
    await setEmissions(farm, 4n * E6, 0n, t1); // pool 0: 100 s at 1 SAUCE/s so far
    const t2 = await later(50n);
    await setAlloc(farm, 1n, 3n, t2); // pool 0: 50 s at 2 SAUCE/s, then a quarter of 4
    const t3 = await later(10n);
    expect(harvested(await harvest(alice, farm, 0n, t3)).sauce).toBe(100n * E6 + 50n * 2n * E6 + 10n * E6);
    const t4 = await later();
    // Pool 1: 100 s at 1, 50 s at 2, 11 s at 3 SAUCE/s.
    expect(harvested(await harvest(alice, farm, 1n, t4)).sauce).toBe(100n * E6 + 100n * E6 + 33n * E6);
  });

  it('pays nothing for time with no stake in the pool', async () => {
    const farm = await newFarm();
    const lp = await newToken(devnet, operator, 'LP', 8);
    const alice = await staker(farm, [lp]);
    await add(farm, 1n, lp, await later());
    await setEmissions(farm, E6, E18, await later());
    await fund(farm, 10n * E18, await later());
    const t0 = await later(1_000n); // 1000 s with nobody staked
    await deposit(alice, farm, 0n, E8, t0);
    const t1 = await later(3n);
    await mineAt(devnet, t1);
    expect(await pending(farm, 0n, alice.account.address)).toEqual({ sauce: 3n * E6, native: 3n * E18 });
  });

  it('stakes LP tokens of an AMM pair', async () => {
    const amm = await deployAmm(devnet, operator, { sauce, sauceMinter: operator });
    const usdc = await newToken(devnet, operator, 'USDC', 6);
    const alice = await devnet.newWallet();
    for (const token of [sauce, usdc]) {
      await mintTo(devnet, operator, token, alice.account.address, 1_000n * E6);
      await approveMax(devnet, alice, token, amm.router);
    }
    await mined(
      devnet,
      alice.writeContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'addLiquidity',
        args: [sauce, usdc, 1_000n * E6, 50n * E6, 0n, 0n, alice.account.address, maxUint256],
      }),
    );
    const { factory, farm } = amm;
    const pair = await devnet.public.readContract({
      address: factory,
      abi: AmmFactory.abi,
      functionName: 'getPair',
      args: [sauce, usdc],
    });
    const lp = await balanceOf(devnet, pair, alice.account.address);
    await approveMax(devnet, alice, pair, farm);
    await add(farm, 1n, pair, await later());
    await setEmissions(farm, 5n * E6, 0n, await later());
    await deposit(alice, farm, 0n, lp, await later());
    const sauceBefore = await balanceOf(devnet, sauce, alice.account.address);
    await withdraw(alice, farm, 0n, lp, await later(10n));
    // 10 s at 5 SAUCE a second, per LP unit rounded down at ACC_PRECISION.
    expect(await balanceOf(devnet, sauce, alice.account.address)).toBe(
      sauceBefore + (lp * ((50n * E6 * ACC_PRECISION) / lp)) / ACC_PRECISION,
    );
    expect(
      await devnet.public.readContract({
        address: pair,
        abi: AmmPair.abi,
        functionName: 'balanceOf',
        args: [alice.account.address],
      }),
    ).toBe(lp);
  });
});

describe('native rewards', () => {
  it("keeps native rewards owed when the farm's balance is short", async () => {
    const farm = await newFarm();
    const lp = await newToken(devnet, operator, 'LP', 8);
    const alice = await staker(farm, [lp]);
    const rate = 10n ** 15n; // 0.001 HBAR a second
    await add(farm, 1n, lp, await later());
    await setEmissions(farm, 0n, rate, await later());
    await fund(farm, 30n * rate, await later()); // 30 s of rewards
    const t0 = await later();
    await deposit(alice, farm, 0n, E8, t0);

    const t1 = await later(100n);
    const before = await nativeBalance(alice.account.address);
    const short = await harvest(alice, farm, 0n, t1);
    expect(harvested(short)).toEqual({ sauce: 0n, native: 30n * rate });
    expect(await nativeBalance(alice.account.address)).toBe(before - gasOf(short) + 30n * rate);
    expect(await nativeBalance(farm)).toBe(0n);
    const [owedEvent] = parseEventLogs({ abi: Farm.abi, logs: short.logs, eventName: 'NativeOwed' });
    expect(owedEvent?.args).toEqual({ user: alice.account.address, pid: 0n, owed: 70n * rate });
    expect((await userInfo(farm, 0n, alice.account.address)).nativeOwed).toBe(70n * rate);
    expect((await pending(farm, 0n, alice.account.address)).native).toBe(70n * rate);

    // Nothing in the farm: the harvest pays nothing and keeps all owed, the new accrual too.
    const t2 = await later(10n);
    const empty = await harvest(alice, farm, 0n, t2);
    expect(harvested(empty)).toEqual({ sauce: 0n, native: 0n });
    expect((await userInfo(farm, 0n, alice.account.address)).nativeOwed).toBe(80n * rate);

    await fund(farm, E18, await later(5n));
    const t3 = await later(5n);
    await mineAt(devnet, t3);
    expect((await pending(farm, 0n, alice.account.address)).native).toBe(90n * rate);
    const t4 = await later();
    const after = await nativeBalance(alice.account.address);
    const full = await harvest(alice, farm, 0n, t4);
    expect(harvested(full)).toEqual({ sauce: 0n, native: 91n * rate });
    expect(await nativeBalance(alice.account.address)).toBe(after - gasOf(full) + 91n * rate);
    expect(parseEventLogs({ abi: Farm.abi, logs: full.logs, eventName: 'NativeOwed' })[0]?.args.owed).toBe(0n);
    expect((await userInfo(farm, 0n, alice.account.address)).nativeOwed).toBe(0n);
    expect(await nativeBalance(farm)).toBe(E18 - 91n * rate);
  });

  it('keeps native owed to a staker that refuses the coin', async () => {
    const farm = await newFarm();
    const lp = await newToken(devnet, operator, 'LP', 8);
    const contract = await devnet.deploy(operator, RefusingStaker, []);
    await mintTo(devnet, operator, lp, contract, E8);
    await add(farm, 1n, lp, await later());
    await setEmissions(farm, E6, E18, await later());
    await fund(farm, 100n * E18, await later());
    const t0 = await later();
    await minedAt(devnet, t0, () =>
      operator.writeContract({ address: contract, abi: RefusingStaker.abi, functionName: 'stake', args: [farm, 0n, lp, E8] }),
    );
    const harvestVia = (time: bigint) =>
      minedAt(devnet, time, () =>
        operator.writeContract({ address: contract, abi: RefusingStaker.abi, functionName: 'harvest', args: [farm, 0n] }),
      );
    const t1 = await later(10n);
    const refused = await harvestVia(t1);
    expect(harvested(refused)).toEqual({ sauce: 10n * E6, native: 0n });
    expect((await userInfo(farm, 0n, contract)).nativeOwed).toBe(10n * E18);
    expect(await nativeBalance(farm)).toBe(100n * E18);
    await mined(
      devnet,
      operator.writeContract({ address: contract, abi: RefusingStaker.abi, functionName: 'setAccepts', args: [true] }),
    );
    // At 1 SAUCE and 1 HBAR a second: SAUCE since the refused harvest, HBAR since the deposit.
    const t2 = await later(2n);
    const accepted = await harvestVia(t2);
    expect(harvested(accepted)).toEqual({ sauce: (t2 - t1) * E6, native: (t2 - t0) * E18 });
    expect((await userInfo(farm, 0n, contract)).nativeOwed).toBe(0n);
    expect(await nativeBalance(contract)).toBe((t2 - t0) * E18);
    expect(await balanceOf(devnet, sauce, contract)).toBe((t2 - t0) * E6);
  });
});

describe('withdrawals', () => {
  it('returns the stake on an emergency withdrawal, giving up the rewards since the last harvest', async () => {
    const farm = await newFarm();
    const lp = await newToken(devnet, operator, 'LP', 8);
    const alice = await staker(farm, [lp], 10n * E8);
    await add(farm, 1n, lp, await later());
    await setEmissions(farm, E6, 0n, await later());
    await deposit(alice, farm, 0n, 10n * E8, await later());
    const receipt = await minedAt(devnet, await later(50n), () =>
      alice.writeContract({ address: farm, abi: Farm.abi, functionName: 'emergencyWithdraw', args: [0n] }),
    );
    expect(parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'EmergencyWithdraw' })[0]?.args).toEqual({
      user: alice.account.address,
      pid: 0n,
      amount: 10n * E8,
    });
    expect(await balanceOf(devnet, lp, alice.account.address)).toBe(10n * E8);
    expect(await balanceOf(devnet, sauce, alice.account.address)).toBe(0n);
    expect(await userInfo(farm, 0n, alice.account.address)).toEqual({
      amount: 0n,
      sauceDebt: 0n,
      nativeDebt: 0n,
      nativeOwed: 0n,
    });
    const [, , , , , totalStaked] = await devnet.public.readContract({
      address: farm,
      abi: Farm.abi,
      functionName: 'poolInfo',
      args: [0n],
    });
    expect(totalStaked).toBe(0n);
  });
});

describe('model', () => {
  it('matches the bigint model over 40 seeded random actions', async () => {
    const farm = await newFarm();
    const lps = [await newToken(devnet, operator, 'LPA', 8), await newToken(devnet, operator, 'LPB', 8)];
    const users = [await staker(farm, lps), await staker(farm, lps), await staker(farm, lps)];
    const model = new FarmModel();
    const sauceEarned = new Map<Address, bigint>(users.map((user) => [user.account.address, 0n]));
    const random = new Prng(0xfa4a);
    for (const [pid, lp] of lps.entries()) {
      const time = await later();
      await add(farm, BigInt(pid + 1), lp, time);
      model.add(BigInt(pid + 1), time);
    }
    const start = await later();
    await setEmissions(farm, 1_234_567n, 3n * 10n ** 15n + 1n, start);
    model.setEmissions(1_234_567n, 3n * 10n ** 15n + 1n, start);

    for (let step = 0; step < 40; step++) {
      const time = await later(random.between(1n, 120n));
      const user = users[random.next() % users.length] as Wallet;
      const account = user.account.address;
      const pid = random.next() % lps.length;
      const staked = model.user(pid, account).amount;
      const roll = random.next() % 10;
      let receipt: TransactionReceipt;
      let paid: Paid | undefined;
      if (roll < 4) {
        const amount = random.between(1n, 1_000n * E8);
        receipt = await deposit(user, farm, BigInt(pid), amount, time);
        paid = model.deposit(pid, account, amount, time);
      } else if (roll < 6 && staked > 0n) {
        const amount = random.between(1n, staked);
        receipt = await withdraw(user, farm, BigInt(pid), amount, time);
        paid = model.withdraw(pid, account, amount, time);
      } else if (roll < 8) {
        receipt = await harvest(user, farm, BigInt(pid), time);
        paid = model.harvest(pid, account, time);
      } else if (roll === 8) {
        // Funding a little at a time keeps the farm short now and then.
        const amount = random.between(0n, 200n * 10n ** 15n);
        receipt = await fund(farm, amount, time);
        model.fund(amount);
      } else {
        const allocPoint = random.between(0n, 5n);
        receipt = await setAlloc(farm, BigInt(pid), allocPoint, time);
        model.set(pid, allocPoint, time);
      }
      if (paid) {
        expect(harvested(receipt), `step ${step}`).toEqual({ sauce: paid.sauce, native: paid.native });
        sauceEarned.set(account, (sauceEarned.get(account) ?? 0n) + paid.sauce);
        expect(await userInfo(farm, BigInt(pid), account), `step ${step}`).toEqual(model.user(pid, account));
      }
      expect(await nativeBalance(farm), `step ${step}`).toBe(model.balance);
    }

    const end = await later(30n);
    await mineAt(devnet, end);
    for (const user of users) {
      const account = user.account.address;
      expect(await balanceOf(devnet, sauce, account)).toBe(sauceEarned.get(account));
      for (const pid of [0, 1]) {
        expect(await pending(farm, BigInt(pid), account)).toEqual({
          sauce: model.pendingSauce(pid, account, end),
          native: model.pendingNative(pid, account, end),
        });
      }
    }
    for (const [pid, pool] of model.pools.entries()) {
      expect(
        await devnet.public.readContract({ address: farm, abi: Farm.abi, functionName: 'poolInfo', args: [BigInt(pid)] }),
      ).toEqual([
        lps[pid],
        pool.allocPoint,
        pool.lastRewardTime,
        pool.accSaucePerShare,
        pool.accNativePerShare,
        pool.totalStaked,
      ]);
    }
  });
});
