import { amountIn, amountOut, type Eip712Domain } from '@dex/core';
import { type Address, maxUint256, parseEventLogs, zeroAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmmFactory, AmmRouter, PartialFillLimitOrderReactor, TestToken } from '../src/generated/artifacts.js';
import { reactorRole } from '../src/reactor-roles.js';
import { outcomeOf, type RejectReason } from '../src/reject-reasons.js';
import { balanceOf, mined, mintTo, reservesOf } from './support/amm.js';
import type { TestDevnet, Wallet } from './support/devnet.js';
import { fill, type SignedOrder, TestOrder } from './support/orders.js';
import { BASE, CHANGE_DELAY, E6, E8, FEES, onboard, QUOTE, startReactorChain } from './support/reactor-chain.js';

let devnet: TestDevnet;
let operator: Wallet;
let reactor: Address;
let permit2: Address;
let factory: Address;
let router: Address;
let pair: Address;
let domain: Eip712Domain;
let nextFillId = 1n;

beforeAll(async () => {
  ({ devnet, operator, reactor, permit2, domain } = await startReactorChain());
  factory = await devnet.deploy(operator, AmmFactory, [operator.account.address]);
  router = await devnet.deploy(operator, AmmRouter, [factory]);
  // 100,000 BASE against 25,000 QUOTE: 0.25 QUOTE per BASE.
  const provider = await funded(200_000n * E8, 50_000n * E6, router);
  await mined(
    devnet,
    provider.writeContract({
      address: router,
      abi: AmmRouter.abi,
      functionName: 'addLiquidity',
      args: [BASE, QUOTE, 100_000n * E8, 25_000n * E6, 0n, 0n, provider.account.address, maxUint256],
    }),
  );
  pair = await devnet.public.readContract({
    address: factory,
    abi: AmmFactory.abi,
    functionName: 'getPair',
    args: [BASE, QUOTE],
  });
}, 60_000);

afterAll(async () => {
  await devnet?.stop();
});

/** A fresh wallet holding BASE and QUOTE, with `spender` approved for both (the reactor through Permit2). */
async function funded(base: bigint, quote: bigint, spender: Address): Promise<Wallet> {
  const wallet = await devnet.newWallet();
  for (const [token, amount] of [
    [BASE, base],
    [QUOTE, quote],
  ] as const) {
    await mintTo(devnet, operator, token, wallet.account.address, amount);
    if (spender === reactor) await onboard(devnet, wallet, { reactor, permit2 }, token);
    else
      await mined(
        devnet,
        wallet.writeContract({ address: token, abi: TestToken.abi, functionName: 'approve', args: [spender, maxUint256] }),
      );
  }
  return wallet;
}

const PAIR_FACTORY_ROLE = reactorRole('PairFactory');

/** Points the reactor at the factory (or at none): at once the first time, else after the change delay. */
async function usePairsOf(address: Address): Promise<void> {
  const call = { address: reactor, abi: PartialFillLimitOrderReactor.abi } as const;
  const current = await devnet.public.readContract({ ...call, functionName: 'pairFactory' });
  await mined(devnet, operator.writeContract({ ...call, functionName: 'proposeRole', args: [PAIR_FACTORY_ROLE, address] }));
  if (current === zeroAddress) return;
  await devnet.test.increaseTime({ seconds: Number(CHANGE_DELAY) });
  await mined(devnet, operator.writeContract({ ...call, functionName: 'acceptRole', args: [PAIR_FACTORY_ROLE] }));
}

interface PoolFillArgs {
  readonly fillId: bigint;
  readonly taker: number;
  readonly takerFeePips: number;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

function poolFill(taker: number, paid: bigint, received: bigint, takerFeePips = 0): PoolFillArgs {
  return { fillId: nextFillId++, taker, takerFeePips, amountIn: paid, amountOut: received };
}

type FillArgs = ReturnType<typeof fill>;

async function settle(orders: readonly SignedOrder[], fills: readonly FillArgs[], poolFills: readonly PoolFillArgs[]) {
  const request = {
    account: operator.account,
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'settle',
    args: [orders, fills, poolFills],
  } as const;
  const { result } = await devnet.public.simulateContract(request);
  const receipt = await mined(devnet, operator.writeContract(request));
  const events = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs });
  return { outcomes: result.map((outcome) => outcomeOf(outcome).reason), events };
}

/** Reserves of the pair as [BASE, QUOTE]. */
async function reserves(): Promise<[bigint, bigint]> {
  const { reserve0, reserve1 } = await reservesOf(devnet, pair);
  return BASE.toLowerCase() < QUOTE.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0];
}

const filledOf = async (signed: SignedOrder) =>
  devnet.public.readContract({
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'filled',
    args: [
      await devnet.public.readContract({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'orderDigest',
        args: [signed.order],
      }),
    ],
  });

/** A taker selling `base` BASE for at least `quote` QUOTE. */
async function seller(base: bigint, quote: bigint, change: (order: TestOrder) => TestOrder = (order) => order) {
  const wallet = await funded(10n * base, 0n, reactor);
  const order = await change(
    TestOrder.sell(reactor, wallet.account.address, { token: BASE, amount: base }, { token: QUOTE, amount: quote }),
  ).signedBy(wallet, domain);
  return { wallet, order };
}

describe('settle with pool fills', () => {
  beforeAll(() => usePairsOf(factory));

  it('swaps the taker with the pair at the pair’s own formula, passing the output on less the taker’s fee', async () => {
    const { wallet, order } = await seller(100n * E8, 20n * E6);
    const [baseReserve, quoteReserve] = await reserves();
    const paid = 40n * E8;
    const received = amountOut(paid, baseReserve, quoteReserve);
    // Fees round down: never above the rate the order signed for.
    const fee = (received * 3_000n) / 1_000_000n;
    const { outcomes, events } = await settle([order], [], [poolFill(0, paid, received, 3_000)]);
    expect(outcomes).toEqual(['None']);
    expect(events.find((event) => event.eventName === 'PoolFilled')?.args).toMatchObject({
      pair,
      taker: wallet.account.address,
      amountIn: paid,
      amountOut: received,
      takerFee: fee,
    });
    expect(await balanceOf(devnet, QUOTE, wallet.account.address)).toBe(received - fee);
    expect(await balanceOf(devnet, QUOTE, FEES)).toBeGreaterThanOrEqual(fee);
    expect(await reserves()).toEqual([baseReserve + paid, quoteReserve - received]);
    expect(await filledOf(order)).toBe(paid);
  });

  it('buys exactly the output the engine priced with amountIn', async () => {
    const wallet = await funded(0n, 1_000n * E6, reactor);
    const order = await TestOrder.sell(
      reactor,
      wallet.account.address,
      { token: QUOTE, amount: 1_000n * E6 },
      { token: BASE, amount: 3_000n * E8 },
    ).signedBy(wallet, domain);
    const [baseReserve, quoteReserve] = await reserves();
    const bought = 1_000n * E8;
    const paid = amountIn(bought, quoteReserve, baseReserve) as bigint;
    const { outcomes } = await settle([order], [], [poolFill(0, paid, bought)]);
    expect(outcomes).toEqual(['None']);
    expect(await balanceOf(devnet, BASE, wallet.account.address)).toBe(bought);
    expect(await reserves()).toEqual([baseReserve - bought, quoteReserve + paid]);
  });

  it('skips only the swap of a pool that moved since it was priced by more than its taker fee, and settles the rest of the batch', async () => {
    const first = await seller(100n * E8, 20n * E6);
    const second = await seller(100n * E8, 20n * E6);
    const maker = await funded(0n, 100n * E6, reactor);
    const bid = await TestOrder.sell(
      reactor,
      maker.account.address,
      { token: QUOTE, amount: 100n * E6 },
      { token: BASE, amount: 100n * E8 },
    ).signedBy(maker, domain);
    const [baseReserve, quoteReserve] = await reserves();
    const paid = 50n * E8;
    // Both swaps were priced on the same reserves: the second finds the pool moved by the first.
    const received = amountOut(paid, baseReserve, quoteReserve);
    const { outcomes, events } = await settle(
      [first.order, second.order, bid],
      [fill(nextFillId++, 2, 1, 10n * E6, 10n * E8)],
      [poolFill(0, paid, received), poolFill(1, paid, received)],
    );
    expect(outcomes).toEqual(['None', 'None', 'PoolMoved']);
    expect(events.filter((event) => event.eventName === 'PoolFilled')).toHaveLength(1);
    expect(await filledOf(second.order)).toBe(10n * E8);
    expect(await balanceOf(devnet, BASE, second.wallet.account.address)).toBe(1_000n * E8 - 10n * E8);
    expect(await reserves()).toEqual([baseReserve + paid, quoteReserve - received]);
  });

  it('settles a swap on a pool that moved a little since it was priced: the taker gets exactly what it was told, the fee absorbs the move', async () => {
    const nudger = await seller(E8, 1n);
    const taker = await seller(100n * E8, 20n * E6);
    const [baseReserve, quoteReserve] = await reserves();
    // Both priced on the same reserves; the first, a hundredth of a BASE, moves the pool against the second.
    const nudge = E6;
    const nudged = amountOut(nudge, baseReserve, quoteReserve);
    const paid = 50n * E8;
    const stated = amountOut(paid, baseReserve, quoteReserve);
    const fee = (stated * 3_000n) / 1_000_000n;
    const feesBefore = await balanceOf(devnet, QUOTE, FEES);
    const { outcomes } = await settle(
      [nudger.order, taker.order],
      [],
      [poolFill(0, nudge, nudged), poolFill(1, paid, stated, 3_000)],
    );
    expect(outcomes).toEqual(['None', 'None']);
    const given = amountOut(paid, baseReserve + nudge, quoteReserve - nudged);
    expect(given).toBeLessThan(stated);
    expect(await balanceOf(devnet, QUOTE, taker.wallet.account.address)).toBe(stated - fee);
    expect((await balanceOf(devnet, QUOTE, FEES)) - feesBefore).toBe(given - (stated - fee));
    expect(await reserves()).toEqual([baseReserve + nudge + paid, quoteReserve - nudged - given]);
    expect(await balanceOf(devnet, QUOTE, reactor)).toBe(0n);
  });

  const refusals: [string, RejectReason, () => Promise<{ orders: SignedOrder[]; poolFill: PoolFillArgs }>][] = [
    [
      'below the taker’s signed price',
      'TakerPrice',
      async () => ({ orders: [(await seller(10n * E8, 3n * E6)).order], poolFill: poolFill(0, 10n * E8, 2n * E6) }),
    ],
    [
      'beyond the taker’s input',
      'TakerOverfill',
      async () => ({ orders: [(await seller(10n * E8, 1n * E6)).order], poolFill: poolFill(0, 11n * E8, 2n * E6) }),
    ],
    [
      'over the taker’s fee cap',
      'TakerFeeCap',
      async () => ({ orders: [(await seller(10n * E8, 1n * E6)).order], poolFill: poolFill(0, E8, 2n * E5, 3_001) }),
    ],
    [
      'of nothing',
      'ZeroAmount',
      async () => ({ orders: [(await seller(10n * E8, 1n * E6)).order], poolFill: poolFill(0, E8, 0n) }),
    ],
    [
      'from a maker-only order',
      'MakerOnly',
      async () => ({
        orders: [(await seller(10n * E8, 1n * E6, (order) => order.with({ makerOnly: true }))).order],
        poolFill: poolFill(0, E8, E5),
      }),
    ],
    [
      'of an order past its deadline',
      'Expired',
      async () => ({
        orders: [(await seller(10n * E8, 1n * E6, (order) => order.with({ info: { deadline: 1n } }))).order],
        poolFill: poolFill(0, E8, E5),
      }),
    ],
    [
      'naming no order of the batch',
      'BadIndex',
      async () => ({ orders: [(await seller(10n * E8, 1n * E6)).order], poolFill: poolFill(3, E8, E5) }),
    ],
  ];

  it.each(refusals)('refuses a swap %s', async (_, reason, make) => {
    const { orders, poolFill: swap } = await make();
    const before = await reserves();
    const { outcomes, events } = await settle(orders, [], [swap]);
    expect(outcomes).toEqual([reason]);
    expect(events.map((event) => event.eventName)).toEqual(['FillRejected']);
    expect(await reserves()).toEqual(before);
  });

  it('refuses a fill id that already settled', async () => {
    const { order } = await seller(10n * E8, 1n * E6);
    const [baseReserve, quoteReserve] = await reserves();
    const swap = poolFill(0, E8, amountOut(E8, baseReserve, quoteReserve));
    expect((await settle([order], [], [swap])).outcomes).toEqual(['None']);
    expect((await settle([order], [], [swap])).outcomes).toEqual(['AlreadySettled']);
  });

  it('refuses every swap while no factory is set, one for tokens without a pair, and one whose factory fails', async () => {
    // Changing the factory waits a day of chain time: the order must outlive it.
    const { order } = await seller(10n * E8, 1n * E6, (o) => o.with({ info: { deadline: 2n ** 40n } }));
    await usePairsOf(zeroAddress);
    expect((await settle([order], [], [poolFill(0, E8, E5)])).outcomes).toEqual(['NoPool']);
    const other = await devnet.deploy(operator, AmmFactory, [operator.account.address]);
    await usePairsOf(other);
    expect((await settle([order], [], [poolFill(0, E8, E5)])).outcomes).toEqual(['NoPool']);
    // A factory that fails the lookup (here a token, which has no getPair) fails that swap, not the batch.
    await usePairsOf(BASE);
    expect((await settle([order], [], [poolFill(0, E8, E5)])).outcomes).toEqual(['NoPool']);
    await usePairsOf(factory);
  });

  it('lets only the owner choose the factory', async () => {
    const stranger = await devnet.newWallet();
    await expect(
      stranger.writeContract({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'proposeRole',
        args: [PAIR_FACTORY_ROLE, stranger.account.address],
      }),
    ).rejects.toThrow(/NotOwner/);
    const chosen = await devnet.public.readContract({
      address: reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'pairFactory',
    });
    expect(chosen.toLowerCase()).toBe(factory.toLowerCase());
  });
});

const E5 = 100_000n;
