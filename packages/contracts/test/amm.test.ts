import fc from 'fast-check';
import { type Address, maxUint256, parseEventLogs, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AmmDeployment, deployAmm } from '../src/amm-deployment.js';
import { AmmMathHarness } from '../src/generated/artifacts.js';
import {
  AmmFactory,
  AmmPair,
  AmmRouter,
  amountIn,
  amountOut,
  approveMax,
  associateAs,
  balanceOf,
  latestTime,
  mined,
  minedAt,
  mintTo,
  newToken,
  Prng,
  protocolFee,
  quote,
  reservesOf,
  revertOf,
  sqrt,
} from './support/amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';

const E6 = 1_000_000n;
const E8 = 100_000_000n;
const LOCK = '0x000000000000000000000000000000000000dEaD';
const FOREVER = maxUint256;

let devnet: TestDevnet;
let operator: Wallet;
let trader: Wallet;
let amm: AmmDeployment;
let math: Address;
let whbar: Address;
let usdc: Address;
let sauce: Address;

/** A fresh token with the trader holding plenty, approved to the router. */
async function tradedToken(symbol: string, decimals: number): Promise<Address> {
  const token = await newToken(devnet, operator, symbol, decimals);
  await mintTo(devnet, operator, token, trader.account.address, 10n ** 30n);
  await approveMax(devnet, trader, token, amm.router);
  return token;
}

beforeAll(async () => {
  devnet = await startTestDevnet();
  operator = await devnet.newWallet();
  trader = await devnet.newWallet();
  sauce = await newToken(devnet, operator, 'SAUCE', 6);
  amm = await deployAmm(devnet, operator, { sauce, sauceMinter: operator });
  math = await devnet.deploy(operator, AmmMathHarness, []);
  whbar = await tradedToken('WHBAR', 8);
  usdc = await tradedToken('USDC', 6);
  await mintTo(devnet, operator, sauce, trader.account.address, 10n ** 30n);
  await approveMax(devnet, trader, sauce, amm.router);
});

afterAll(async () => {
  await devnet?.stop();
});

const sorted = (a: Address, b: Address): [Address, Address] => (BigInt(a) < BigInt(b) ? [a, b] : [b, a]);

const pairOf = (a: Address, b: Address) =>
  devnet.public.readContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'getPair', args: [a, b] });

const supplyOf = (pair: Address) => devnet.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'totalSupply' });

const kLastOf = (pair: Address) => devnet.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'kLast' });

/** Reserves of the pair of `a` and `b` in the order (a, b). */
async function reserves(a: Address, b: Address): Promise<[bigint, bigint]> {
  const { reserve0, reserve1 } = await reservesOf(devnet, await pairOf(a, b));
  return sorted(a, b)[0] === a ? [reserve0, reserve1] : [reserve1, reserve0];
}

async function addLiquidity(a: Address, b: Address, amountA: bigint, amountB: bigint, minA = 0n, minB = 0n) {
  const { result, request } = await devnet.public.simulateContract({
    account: trader.account,
    address: amm.router,
    abi: AmmRouter.abi,
    functionName: 'addLiquidity',
    args: [a, b, amountA, amountB, minA, minB, trader.account.address, FOREVER],
  });
  const receipt = await mined(devnet, trader.writeContract(request));
  const [usedA, usedB, liquidity] = result;
  return { usedA, usedB, liquidity, receipt };
}

async function swapExactIn(path: Address[], paid: bigint, minOut = 0n) {
  const { result, request } = await devnet.public.simulateContract({
    account: trader.account,
    address: amm.router,
    abi: AmmRouter.abi,
    functionName: 'swapExactTokensForTokens',
    args: [paid, minOut, path, trader.account.address, FOREVER],
  });
  const receipt = await mined(devnet, trader.writeContract(request));
  return { amounts: result, receipt };
}

const setFeeTo = (feeTo: Address) =>
  mined(devnet, operator.writeContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'setFeeTo', args: [feeTo] }));

describe('AmmMath', () => {
  const call = (functionName: 'amountOut' | 'amountIn' | 'quote', args: readonly [bigint, bigint, bigint]): Promise<bigint> =>
    devnet.public.readContract({ address: math, abi: AmmMathHarness.abi, functionName, args });

  it('computes floor(sqrt(x)) over the whole uint256 range', async () => {
    const edges = [0n, 1n, 2n, 3n, 4n, 8n, 9n, 10n ** 36n - 1n, 10n ** 36n, 2n ** 224n - 1n, 2n ** 256n - 1n];
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })), async (x) => {
        const root = await devnet.public.readContract({
          address: math,
          abi: AmmMathHarness.abi,
          functionName: 'sqrt',
          args: [x],
        });
        expect(root).toBe(sqrt(x));
        expect(root * root <= x && (root + 1n) * (root + 1n) > x).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('prices amounts out and in by the formulas, and never lets a round trip gain', async () => {
    const reserve = fc.bigInt({ min: 1_000n, max: 2n ** 112n - 1n });
    await fc.assert(
      fc.asyncProperty(reserve, reserve, fc.bigInt({ min: 1n, max: 2n ** 100n }), async (reserveIn, reserveOut, paid) => {
        const out = await call('amountOut', [paid, reserveIn, reserveOut]);
        expect(out).toBe(amountOut(paid, reserveIn, reserveOut));
        expect(out < reserveOut).toBe(true);
        if (out === 0n) return;
        const needed = await call('amountIn', [out, reserveIn, reserveOut]);
        expect(needed).toBe(amountIn(out, reserveIn, reserveOut));
        // The least input for `out` is no more than what bought it, and buys at least `out`.
        expect(needed <= paid).toBe(true);
        expect(amountOut(needed, reserveIn, reserveOut) >= out).toBe(true);
        expect(await call('quote', [paid, reserveIn, reserveOut])).toBe(quote(paid, reserveIn, reserveOut));
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a zero amount and empty reserves', async () => {
    expect((await revertOf(call('amountOut', [0n, 1n, 1n]))).name).toBe('ZeroAmount');
    expect((await revertOf(call('amountOut', [1n, 0n, 1n]))).name).toBe('InsufficientLiquidity');
    expect((await revertOf(call('amountIn', [5n, 10n, 5n]))).name).toBe('InsufficientLiquidity');
    expect((await revertOf(call('quote', [1n, 1n, 0n]))).name).toBe('InsufficientLiquidity');
  });
});

describe('AmmFactory', () => {
  it('creates one pair per token pair, found in both orders', async () => {
    const a = await tradedToken('A', 8);
    const b = await tradedToken('B', 6);
    const before = await devnet.public.readContract({
      address: amm.factory,
      abi: AmmFactory.abi,
      functionName: 'allPairsLength',
    });
    const receipt = await mined(
      devnet,
      trader.writeContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'createPair', args: [b, a] }),
    );
    const [created] = parseEventLogs({ abi: AmmFactory.abi, logs: receipt.logs, eventName: 'PairCreated' });
    const [token0, token1] = sorted(a, b);
    expect(created?.args).toEqual({ token0, token1, pair: expect.any(String), index: before });
    const pair = created?.args.pair as Address;
    expect(await pairOf(a, b)).toBe(pair);
    expect(await pairOf(b, a)).toBe(pair);
    expect(
      await devnet.public.readContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'allPairs', args: [before] }),
    ).toBe(pair);
    expect(await devnet.public.readContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'allPairsLength' })).toBe(
      before + 1n,
    );
    const read = <const name extends 'token0' | 'token1' | 'factory' | 'name' | 'symbol' | 'decimals'>(functionName: name) =>
      devnet.public.readContract({ address: pair, abi: AmmPair.abi, functionName });
    expect([await read('token0'), await read('token1'), await read('factory')]).toEqual([token0, token1, amm.factory]);
    expect([await read('name'), await read('symbol'), await read('decimals')]).toEqual(['SaucerSwap LP Token', 'SSLP', 8]);
  });

  it('refuses identical tokens, the zero address and an existing pair', async () => {
    const create = (a: Address, b: Address) =>
      trader.writeContract({ address: amm.factory, abi: AmmFactory.abi, functionName: 'createPair', args: [a, b] });
    expect((await revertOf(create(whbar, whbar))).name).toBe('IdenticalTokens');
    expect((await revertOf(create(whbar, zeroAddress))).name).toBe('ZeroAddress');
    const a = await tradedToken('C', 8);
    await mined(devnet, create(a, usdc));
    expect(await revertOf(create(usdc, a))).toEqual({ name: 'PairExists', args: [await pairOf(a, usdc)] });
  });

  it('lets only the fee setter set feeTo or hand the role on', async () => {
    const other = await devnet.newWallet();
    const write = (wallet: Wallet, functionName: 'setFeeTo' | 'setFeeToSetter', account: Address) =>
      wallet.writeContract({ address: amm.factory, abi: AmmFactory.abi, functionName, args: [account] });
    const read = (functionName: 'feeTo' | 'feeToSetter') =>
      devnet.public.readContract({ address: amm.factory, abi: AmmFactory.abi, functionName });
    expect(await read('feeToSetter')).toBe(operator.account.address);
    expect(await read('feeTo')).toBe(zeroAddress);
    expect((await revertOf(write(other, 'setFeeTo', other.account.address))).name).toBe('NotFeeToSetter');
    expect((await revertOf(write(other, 'setFeeToSetter', other.account.address))).name).toBe('NotFeeToSetter');
    await mined(devnet, write(operator, 'setFeeToSetter', other.account.address));
    expect((await revertOf(write(operator, 'setFeeTo', operator.account.address))).name).toBe('NotFeeToSetter');
    await mined(devnet, write(other, 'setFeeToSetter', operator.account.address));
    expect(await read('feeToSetter')).toBe(operator.account.address);
  });
});

describe('liquidity', () => {
  it('locks MINIMUM_LIQUIDITY on the first mint', async () => {
    const a = await tradedToken('D', 8);
    const amountA = 40_000n * E8;
    const amountB = 10_000n * E6;
    const { usedA, usedB, liquidity, receipt } = await addLiquidity(a, usdc, amountA, amountB);
    const pair = await pairOf(a, usdc);
    expect([usedA, usedB]).toEqual([amountA, amountB]);
    const root = sqrt(amountA * amountB);
    expect(liquidity).toBe(root - 1_000n);
    expect(await balanceOf(devnet, pair, trader.account.address)).toBe(root - 1_000n);
    expect(await balanceOf(devnet, pair, LOCK)).toBe(1_000n);
    expect(await supplyOf(pair)).toBe(root);
    expect(await devnet.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'MINIMUM_LIQUIDITY' })).toBe(1_000n);
    expect(await reserves(a, usdc)).toEqual([amountA, amountB]);
    const [token0] = sorted(a, usdc);
    const [mint] = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Mint' });
    expect(mint?.args).toEqual({
      sender: amm.router,
      amount0: token0 === a ? amountA : amountB,
      amount1: token0 === a ? amountB : amountA,
    });
  });

  it('refuses a first mint worth no more than MINIMUM_LIQUIDITY', async () => {
    const a = await tradedToken('E', 8);
    // sqrt(1000 * 1000) = 1000: nothing would be left after the lock.
    const call = devnet.public.simulateContract({
      account: trader.account,
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'addLiquidity',
      args: [a, usdc, 1_000n, 1_000n, 0n, 0n, trader.account.address, FOREVER],
    });
    expect((await revertOf(call)).name).toBe('InsufficientLiquidityMinted');
  });

  it('adds later liquidity at the pool ratio, minting the smaller share', async () => {
    const a = await tradedToken('F', 8);
    await addLiquidity(a, usdc, 3_000n * E8, 777n * E6);
    const pair = await pairOf(a, usdc);
    for (const [desiredA, desiredB] of [
      [1_000n * E8 + 12_345n, 10_000n * E6], // B is plentiful: all of A, B at the ratio
      [1_000n * E8, 100n * E6 + 7n], // A is plentiful: all of B, A at the ratio
    ] as const) {
      const [reserveA, reserveB] = await reserves(a, usdc);
      const supply = await supplyOf(pair);
      const bForA = quote(desiredA, reserveA, reserveB);
      const [expectA, expectB] = bForA <= desiredB ? [desiredA, bForA] : [quote(desiredB, reserveB, reserveA), desiredB];
      const byA = (expectA * supply) / reserveA;
      const byB = (expectB * supply) / reserveB;
      const { usedA, usedB, liquidity } = await addLiquidity(a, usdc, desiredA, desiredB);
      expect([usedA, usedB, liquidity]).toEqual([expectA, expectB, byA < byB ? byA : byB]);
      expect(await reserves(a, usdc)).toEqual([reserveA + expectA, reserveB + expectB]);
    }
  });

  it('keeps an empty pair at zero reserves through a donation and a sync, and lets its first LP take the donation', async () => {
    const a = await tradedToken('K', 8);
    const created = await devnet.public.simulateContract({
      account: trader.account,
      address: amm.factory,
      abi: AmmFactory.abi,
      functionName: 'createPair',
      args: [a, usdc],
    });
    await mined(devnet, trader.writeContract(created.request));
    const pair = created.result;
    // One token sent in and synced: the reserves would read (0, x) and the router's quote revert.
    await mined(
      devnet,
      trader.writeContract({ address: usdc, abi: AmmPair.abi, functionName: 'transfer', args: [pair, 5n * E6] }),
    );
    await mined(devnet, trader.writeContract({ address: pair, abi: AmmPair.abi, functionName: 'sync' }));
    expect(await reserves(a, usdc)).toEqual([0n, 0n]);
    const { usedA, usedB, liquidity } = await addLiquidity(a, usdc, 40n * E8, 10n * E6);
    expect([usedA, usedB]).toEqual([40n * E8, 10n * E6]);
    expect(liquidity).toBe(sqrt(40n * E8 * 15n * E6) - 1_000n);
    expect(await reserves(a, usdc)).toEqual([40n * E8, 15n * E6]);
  });

  it('refuses liquidity under the minimums', async () => {
    const a = await tradedToken('G', 8);
    await addLiquidity(a, usdc, 1_000n * E8, 1_000n * E6);
    const add = (desiredA: bigint, desiredB: bigint, minA: bigint, minB: bigint) =>
      trader.writeContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'addLiquidity',
        args: [a, usdc, desiredA, desiredB, minA, minB, trader.account.address, FOREVER],
      });
    // At 1:1 (in whole tokens) 10 A take 10 B; asking for at least 11 B fails, and the other way round.
    expect(await revertOf(add(10n * E8, 20n * E6, 0n, 11n * E6))).toEqual({
      name: 'InsufficientBAmount',
      args: [10n * E6, 11n * E6],
    });
    expect(await revertOf(add(20n * E8, 10n * E6, 11n * E8, 0n))).toEqual({
      name: 'InsufficientAAmount',
      args: [10n * E8, 11n * E8],
    });
  });

  it('removes liquidity pro rata, rounded down', async () => {
    const a = await tradedToken('H', 8);
    await addLiquidity(a, usdc, 12_345n * E8 + 1n, 999n * E6 + 3n);
    const pair = await pairOf(a, usdc);
    await swapExactIn([a, usdc], 77n * E8 + 5n); // balances no longer at the deposit's ratio
    await approveMax(devnet, trader, pair, amm.router);
    const owned = await balanceOf(devnet, pair, trader.account.address);
    const burnt = owned / 3n;
    const [reserveA, reserveB] = await reserves(a, usdc);
    const supply = await supplyOf(pair);
    const before = [await balanceOf(devnet, a, trader.account.address), await balanceOf(devnet, usdc, trader.account.address)];
    const { result, request } = await devnet.public.simulateContract({
      account: trader.account,
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'removeLiquidity',
      args: [a, usdc, burnt, 0n, 0n, trader.account.address, FOREVER],
    });
    const receipt = await mined(devnet, trader.writeContract(request));
    const expected = [(burnt * reserveA) / supply, (burnt * reserveB) / supply];
    expect(result).toEqual(expected);
    expect([await balanceOf(devnet, a, trader.account.address), await balanceOf(devnet, usdc, trader.account.address)]).toEqual([
      (before[0] as bigint) + (expected[0] as bigint),
      (before[1] as bigint) + (expected[1] as bigint),
    ]);
    expect(await supplyOf(pair)).toBe(supply - burnt);
    expect(await reserves(a, usdc)).toEqual([reserveA - (expected[0] as bigint), reserveB - (expected[1] as bigint)]);
    const [burn] = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Burn' });
    const aIs0 = sorted(a, usdc)[0] === a;
    expect(burn?.args).toEqual({
      sender: amm.router,
      amount0: aIs0 ? expected[0] : expected[1],
      amount1: aIs0 ? expected[1] : expected[0],
      to: trader.account.address,
    });
    const remove = (min: bigint) =>
      trader.writeContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'removeLiquidity',
        args: [a, usdc, burnt, min, 0n, trader.account.address, FOREVER],
      });
    expect((await revertOf(remove(reserveA))).name).toBe('InsufficientAAmount');
  });
});

describe('swaps', () => {
  let pool: Address; // WHBAR/USDC at 0.25 USDC a WHBAR

  beforeAll(async () => {
    await addLiquidity(whbar, usdc, 400_000n * E8, 100_000n * E6);
    await addLiquidity(usdc, sauce, 50_000n * E6, 1_000_000n * E6);
    pool = await pairOf(whbar, usdc);
  });

  it('pays exactly getAmountOut on an exact-input swap', async () => {
    const paid = 1_234n * E8 + 56_789n;
    const [reserveIn, reserveOut] = await reserves(whbar, usdc);
    const expected = amountOut(paid, reserveIn, reserveOut);
    expect(
      await devnet.public.readContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'getAmountOut',
        args: [paid, reserveIn, reserveOut],
      }),
    ).toBe(expected);
    const before = [
      await balanceOf(devnet, whbar, trader.account.address),
      await balanceOf(devnet, usdc, trader.account.address),
    ];
    const { amounts, receipt } = await swapExactIn([whbar, usdc], paid, expected);
    expect(amounts).toEqual([paid, expected]);
    expect([
      await balanceOf(devnet, whbar, trader.account.address),
      await balanceOf(devnet, usdc, trader.account.address),
    ]).toEqual([(before[0] as bigint) - paid, (before[1] as bigint) + expected]);
    expect(await reserves(whbar, usdc)).toEqual([reserveIn + paid, reserveOut - expected]);
    const whbarIs0 = sorted(whbar, usdc)[0] === whbar;
    const [swap] = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Swap' });
    expect(swap?.args).toEqual({
      sender: amm.router,
      amount0In: whbarIs0 ? paid : 0n,
      amount1In: whbarIs0 ? 0n : paid,
      amount0Out: whbarIs0 ? 0n : expected,
      amount1Out: whbarIs0 ? expected : 0n,
      to: trader.account.address,
    });
    const [sync] = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Sync' });
    const { reserve0, reserve1 } = await reservesOf(devnet, pool);
    expect(sync?.args).toEqual({ reserve0, reserve1 });
  });

  it('takes exactly getAmountIn on an exact-output swap', async () => {
    const wanted = 321n * E8 + 9n;
    const [reserveIn, reserveOut] = await reserves(usdc, whbar);
    const cost = amountIn(wanted, reserveIn, reserveOut);
    expect(
      await devnet.public.readContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'getAmountIn',
        args: [wanted, reserveIn, reserveOut],
      }),
    ).toBe(cost);
    const before = [
      await balanceOf(devnet, usdc, trader.account.address),
      await balanceOf(devnet, whbar, trader.account.address),
    ];
    const { result, request } = await devnet.public.simulateContract({
      account: trader.account,
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'swapTokensForExactTokens',
      args: [wanted, cost, [usdc, whbar], trader.account.address, FOREVER],
    });
    expect(result).toEqual([cost, wanted]);
    await mined(devnet, trader.writeContract(request));
    expect([
      await balanceOf(devnet, usdc, trader.account.address),
      await balanceOf(devnet, whbar, trader.account.address),
    ]).toEqual([(before[0] as bigint) - cost, (before[1] as bigint) + wanted]);
    expect(await reserves(usdc, whbar)).toEqual([reserveIn + cost, reserveOut - wanted]);
  });

  it('routes a multi-hop path through each pair', async () => {
    const paid = 5_000n * E8;
    const [r1In, r1Out] = await reserves(whbar, usdc);
    const [r2In, r2Out] = await reserves(usdc, sauce);
    const mid = amountOut(paid, r1In, r1Out);
    const out = amountOut(mid, r2In, r2Out);
    const path = [whbar, usdc, sauce];
    expect(
      await devnet.public.readContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'getAmountsOut',
        args: [paid, path],
      }),
    ).toEqual([paid, mid, out]);
    const bought = out / 2n;
    const midIn = amountIn(bought, r2In, r2Out);
    expect(
      await devnet.public.readContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'getAmountsIn',
        args: [bought, path],
      }),
    ).toEqual([amountIn(midIn, r1In, r1Out), midIn, bought]);
    const sauceBefore = await balanceOf(devnet, sauce, trader.account.address);
    const usdcBefore = await balanceOf(devnet, usdc, trader.account.address);
    await swapExactIn(path, paid, out);
    expect(await balanceOf(devnet, sauce, trader.account.address)).toBe(sauceBefore + out);
    expect(await balanceOf(devnet, usdc, trader.account.address)).toBe(usdcBefore); // USDC went pair to pair
    expect(await reserves(whbar, usdc)).toEqual([r1In + paid, r1Out - mid]);
    expect(await reserves(usdc, sauce)).toEqual([r2In + mid, r2Out - out]);
  });

  it('refuses a swap past its deadline', async () => {
    const now = await latestTime(devnet);
    const deadline = now + 10n;
    await devnet.test.setNextBlockTimestamp({ timestamp: deadline + 1n });
    await devnet.test.mine({ blocks: 1 });
    const swap = devnet.public.simulateContract({
      account: trader.account,
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'swapExactTokensForTokens',
      args: [E8, 0n, [whbar, usdc], trader.account.address, deadline],
    });
    expect(await revertOf(swap)).toEqual({ name: 'Expired', args: [deadline, deadline + 1n] });
    // At the deadline itself the swap still goes through.
    await minedAt(devnet, deadline + 2n, () =>
      trader.writeContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'swapExactTokensForTokens',
        args: [E8, 0n, [whbar, usdc], trader.account.address, deadline + 2n],
      }),
    );
  });

  it('refuses an output under the minimum', async () => {
    const [reserveIn, reserveOut] = await reserves(whbar, usdc);
    const out = amountOut(10n * E8, reserveIn, reserveOut);
    const swap = trader.writeContract({
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'swapExactTokensForTokens',
      args: [10n * E8, out + 1n, [whbar, usdc], trader.account.address, FOREVER],
    });
    expect(await revertOf(swap)).toEqual({ name: 'InsufficientOutputAmount', args: [out, out + 1n] });
  });

  it('refuses an input over the maximum', async () => {
    const [reserveIn, reserveOut] = await reserves(usdc, whbar);
    const cost = amountIn(10n * E8, reserveIn, reserveOut);
    const swap = trader.writeContract({
      address: amm.router,
      abi: AmmRouter.abi,
      functionName: 'swapTokensForExactTokens',
      args: [10n * E8, cost - 1n, [usdc, whbar], trader.account.address, FOREVER],
    });
    expect(await revertOf(swap)).toEqual({ name: 'ExcessiveInputAmount', args: [cost, cost - 1n] });
  });

  it('refuses a path too short or through a missing pair', async () => {
    const lone = await tradedToken('LONE', 8);
    const swap = (path: Address[]) =>
      trader.writeContract({
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'swapExactTokensForTokens',
        args: [E8, 0n, path, trader.account.address, FOREVER],
      });
    expect((await revertOf(swap([whbar]))).name).toBe('InvalidPath');
    expect(await revertOf(swap([whbar, lone]))).toEqual({ name: 'PairNotFound', args: [whbar, lone] });
  });

  it('refuses a direct swap that breaks k, pays nothing in or pays out to a token', async () => {
    const [whbarIs0] = [sorted(whbar, usdc)[0] === whbar];
    const paid = 100n * E8;
    const [reserveIn, reserveOut] = await reserves(whbar, usdc);
    const out = amountOut(paid, reserveIn, reserveOut);
    const swap = (bought: bigint, to: Address = trader.account.address) =>
      trader.writeContract({
        address: pool,
        abi: AmmPair.abi,
        functionName: 'swap',
        args: whbarIs0 ? [0n, bought, to] : [bought, 0n, to],
      });
    expect((await revertOf(swap(out))).name).toBe('ZeroInput');
    expect((await revertOf(swap(0n))).name).toBe('ZeroOutput');
    expect((await revertOf(swap(reserveOut))).name).toBe('InsufficientLiquidity');
    await mined(devnet, trader.writeContract({ address: whbar, abi: AmmPair.abi, functionName: 'transfer', args: [pool, paid] }));
    // One unit more than the formula breaks the invariant; the formula's amount does not.
    expect((await revertOf(swap(out + 1n))).name).toBe('KInvariant');
    expect((await revertOf(swap(out, usdc))).name).toBe('InvalidRecipient');
    await mined(devnet, swap(out));
    expect(await reserves(whbar, usdc)).toEqual([reserveIn + paid, reserveOut - out]);
  });

  it('skims a donation, or syncs the reserves to it', async () => {
    const [reserveW, reserveU] = await reserves(whbar, usdc);
    const donate = (amount: bigint) =>
      mined(devnet, trader.writeContract({ address: usdc, abi: AmmPair.abi, functionName: 'transfer', args: [pool, amount] }));
    const other = await devnet.newWallet();
    await associateAs(devnet, other.account.address, usdc);
    await donate(5n * E6);
    await mined(
      devnet,
      trader.writeContract({ address: pool, abi: AmmPair.abi, functionName: 'skim', args: [other.account.address] }),
    );
    expect(await balanceOf(devnet, usdc, other.account.address)).toBe(5n * E6);
    expect(await reserves(whbar, usdc)).toEqual([reserveW, reserveU]);
    await donate(7n * E6);
    await mined(devnet, trader.writeContract({ address: pool, abi: AmmPair.abi, functionName: 'sync' }));
    expect(await reserves(whbar, usdc)).toEqual([reserveW, reserveU + 7n * E6]);
  });

  it('pays the formula to the unit over 30 seeded random swaps, and k never decreases', async () => {
    const random = new Prng(0x5a17ce);
    for (let i = 0; i < 30; i++) {
      const [from, to] = random.chance(0.5) ? [whbar, usdc] : [usdc, whbar];
      const [reserveIn, reserveOut] = await reserves(from, to);
      const kBefore = reserveIn * reserveOut;
      const receivedBefore = await balanceOf(devnet, to, trader.account.address);
      let paid: bigint;
      let out: bigint;
      if (random.chance(0.5)) {
        // Exact input: from a single unit up to half the reserve, weighted towards small trades.
        paid = random.chance(0.2)
          ? random.between(1n, 5_000n)
          : random.between(1n, reserveIn / (random.chance(0.5) ? 2n : 1_000n));
        out = amountOut(paid, reserveIn, reserveOut);
        const swap = trader.writeContract({
          address: amm.router,
          abi: AmmRouter.abi,
          functionName: 'swapExactTokensForTokens',
          args: [paid, out, [from, to], trader.account.address, FOREVER],
        });
        if (out === 0n) {
          // Too little to buy a single unit: the pair refuses to pay nothing.
          expect((await revertOf(swap)).name).toBe('ZeroOutput');
          continue;
        }
        await mined(devnet, swap);
      } else {
        out = random.between(1n, reserveOut / 3n);
        paid = amountIn(out, reserveIn, reserveOut);
        await mined(
          devnet,
          trader.writeContract({
            address: amm.router,
            abi: AmmRouter.abi,
            functionName: 'swapTokensForExactTokens',
            args: [out, paid, [from, to], trader.account.address, FOREVER],
          }),
        );
      }
      expect(await balanceOf(devnet, to, trader.account.address)).toBe(receivedBefore + out);
      const [afterIn, afterOut] = await reserves(from, to);
      expect([afterIn, afterOut]).toEqual([reserveIn + paid, reserveOut - out]);
      expect(afterIn * afterOut >= kBefore).toBe(true);
    }
  });
});

describe('protocol fee', () => {
  it('mints 1/6 of the fee growth to feeTo', async () => {
    const feeTo = (await devnet.newWallet()).account.address;
    const a = await tradedToken('PA', 8);
    const b = await tradedToken('PB', 6);
    await setFeeTo(feeTo);
    try {
      await addLiquidity(a, b, 50_000n * E8, 12_500n * E6);
      const pair = await pairOf(a, b);
      const { reserve0, reserve1 } = await reservesOf(devnet, pair);
      expect(await kLastOf(pair)).toBe(reserve0 * reserve1);
      expect(await balanceOf(devnet, pair, feeTo)).toBe(0n); // nothing has grown yet

      for (const [path, paid] of [
        [[a, b], 3_000n * E8],
        [[b, a], 2_000n * E6],
        [[a, b], 777n * E8 + 1n],
      ] as const) {
        await swapExactIn([...path], paid);
      }

      // The next liquidity event mints the fee before pricing the deposit.
      const kLast = await kLastOf(pair);
      const before = await reservesOf(devnet, pair);
      const supply = await supplyOf(pair);
      const fee = protocolFee(supply, before.reserve0, before.reserve1, kLast);
      expect(fee > 0n).toBe(true);
      const [reserveA, reserveB] = await reserves(a, b);
      const { usedA, usedB, liquidity } = await addLiquidity(a, b, 100n * E8, 10_000n * E6);
      expect(await balanceOf(devnet, pair, feeTo)).toBe(fee);
      const byA = (usedA * (supply + fee)) / reserveA;
      const byB = (usedB * (supply + fee)) / reserveB;
      expect(liquidity).toBe(byA < byB ? byA : byB);
      // What the fee means: feeTo's share of the pool is 1/6 of the growth of sqrt(k), rounded down.
      const root = sqrt(before.reserve0 * before.reserve1);
      const growth = root - sqrt(kLast);
      expect(6n * fee * root <= growth * (supply + fee)).toBe(true);
      expect(6n * (fee + 1n) * root > growth * (supply + fee + 1n)).toBe(true);
      const after = await reservesOf(devnet, pair);
      expect(await kLastOf(pair)).toBe(after.reserve0 * after.reserve1);

      // Once more on a burn: the fee is minted before the burn's share is priced.
      await swapExactIn([b, a], 5_000n * E6);
      const kLast2 = await kLastOf(pair);
      const before2 = await reservesOf(devnet, pair);
      const supply2 = await supplyOf(pair);
      const fee2 = protocolFee(supply2, before2.reserve0, before2.reserve1, kLast2);
      await approveMax(devnet, trader, pair, amm.router);
      const burnt = 1_000n * E8;
      const { result } = await devnet.public.simulateContract({
        account: trader.account,
        address: amm.router,
        abi: AmmRouter.abi,
        functionName: 'removeLiquidity',
        args: [a, b, burnt, 0n, 0n, trader.account.address, FOREVER],
      });
      const [balanceA, balanceB] = await reserves(a, b);
      expect(result).toEqual([(burnt * balanceA) / (supply2 + fee2), (burnt * balanceB) / (supply2 + fee2)]);
      await mined(
        devnet,
        trader.writeContract({
          address: amm.router,
          abi: AmmRouter.abi,
          functionName: 'removeLiquidity',
          args: [a, b, burnt, 0n, 0n, trader.account.address, FOREVER],
        }),
      );
      expect(fee2 > 0n).toBe(true);
      expect(await balanceOf(devnet, pair, feeTo)).toBe(fee + fee2);

      // Switched off: no fee, and kLast is cleared at the next event.
      await setFeeTo(zeroAddress);
      await swapExactIn([a, b], 1_000n * E8);
      await addLiquidity(a, b, 10n * E8, 10n * E6);
      expect(await balanceOf(devnet, pair, feeTo)).toBe(fee + fee2);
      expect(await kLastOf(pair)).toBe(0n);

      // Switched on again: growth counts from the first event after, not from before.
      await setFeeTo(feeTo);
      await addLiquidity(a, b, 10n * E8, 10n * E6);
      expect(await balanceOf(devnet, pair, feeTo)).toBe(fee + fee2);
      const last = await reservesOf(devnet, pair);
      expect(await kLastOf(pair)).toBe(last.reserve0 * last.reserve1);
    } finally {
      await setFeeTo(zeroAddress);
    }
  });

  it('mints no fee while feeTo is unset', async () => {
    const a = await tradedToken('PC', 8);
    await addLiquidity(a, usdc, 1_000n * E8, 1_000n * E6);
    const pair = await pairOf(a, usdc);
    await swapExactIn([a, usdc], 500n * E8);
    const supply = await supplyOf(pair);
    const { liquidity } = await addLiquidity(a, usdc, 10n * E8, 1_000n * E6);
    expect(await supplyOf(pair)).toBe(supply + liquidity);
    expect(await kLastOf(pair)).toBe(0n);
  });
});
