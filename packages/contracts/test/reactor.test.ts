import { readFileSync } from 'node:fs';
import { bytesToHex, type Eip712Domain, ORDER_EIP712_TYPES, OrderHasher } from '@dex/core';
import { orderArbitrary } from '@dex/core/test-support/order-arbitraries';
import fc from 'fast-check';
import { type Address, hashTypedData, keccak256, parseEventLogs, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_KEY_SERVICE_ADDRESS, installAccountKeyService } from '../src/devnet-chain.js';
import { DevnetAccountKeyService, FreezingToken, PartialFillLimitOrderReactor, TestToken } from '../src/generated/artifacts.js';
import { outcomeOf, PARTIES, REJECT_REASONS, type RejectReason } from '../src/reject-reasons.js';
import { mintTo } from './support/amm.js';
import type { TestDevnet, Wallet } from './support/devnet.js';
import { fill, type SignedOrder, TestOrder } from './support/orders.js';
import { BASE, E6, E8, FEES, onboard, QUOTE, startReactorChain } from './support/reactor-chain.js';

let devnet: TestDevnet;
let operator: Wallet;
let reactor: Address;
let permit2: Address;
let domain: Eip712Domain;

beforeAll(async () => {
  ({ devnet, operator, reactor, permit2, domain } = await startReactorChain());
});

afterAll(async () => {
  await devnet?.stop();
});

async function send(hash: Promise<`0x${string}`>) {
  const receipt = await devnet.public.waitForTransactionReceipt({ hash: await hash });
  expect(receipt.status).toBe('success');
  return receipt;
}

/** A wallet holding `base` and `quote` (of `quoteToken`) with the reactor approved for both through Permit2. */
async function trader(base = 1_000n * E8, quote = 100_000n * E6, quoteToken: Address = QUOTE): Promise<Wallet> {
  const wallet = await devnet.newWallet();
  for (const [token, amount] of [
    [BASE, base],
    [quoteToken, quote],
  ] as const) {
    await mintTo(devnet, operator, token, wallet.account.address, amount);
    await onboard(devnet, wallet, { reactor, permit2 }, token);
  }
  return wallet;
}

const balance = (token: Address, owner: Address) =>
  devnet.public.readContract({ address: token, abi: TestToken.abi, functionName: 'balanceOf', args: [owner] });

let nextFillId = 1n;
const newFillId = () => nextFillId++;

/** A sell of `base` BASE for at least `quote` QUOTE (or another quote token). */
const sellBase = (seller: Wallet, base: bigint, quote: bigint, quoteToken: Address = QUOTE) =>
  TestOrder.sell(reactor, seller.account.address, { token: BASE, amount: base }, { token: quoteToken, amount: quote });
/** A buy of `base` BASE paying at most `quote` QUOTE (or another quote token). */
const buyBase = (buyer: Wallet, base: bigint, quote: bigint, quoteToken: Address = QUOTE) =>
  TestOrder.sell(reactor, buyer.account.address, { token: quoteToken, amount: quote }, { token: BASE, amount: base });

type FillArgs = ReturnType<typeof fill>;

const digestOf = (signed: SignedOrder) =>
  devnet.public.readContract({
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'orderDigest',
    args: [signed.order],
  });

async function filledOf(signed: SignedOrder): Promise<bigint> {
  return devnet.public.readContract({
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'filled',
    args: [await digestOf(signed)],
  });
}

async function simulate(orders: readonly SignedOrder[], fills: readonly FillArgs[]): Promise<RejectReason[]> {
  return (await outcomes(orders, fills)).map((outcome) => outcome.reason);
}

async function outcomes(orders: readonly SignedOrder[], fills: readonly FillArgs[]) {
  const { result } = await devnet.public.simulateContract({
    account: operator.account,
    address: reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'settle',
    args: [orders, fills, []],
  });
  return result.map(outcomeOf);
}

async function settle(orders: readonly SignedOrder[], fills: readonly FillArgs[]) {
  const outcomes = await simulate(orders, fills);
  const receipt = await send(
    operator.writeContract({
      address: reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'settle',
      args: [orders, fills, []],
    }),
  );
  const events = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs });
  return { outcomes, events, receipt };
}

describe('order digest', () => {
  it("equals the TypeScript hasher's and viem's for the same order", async () => {
    const hasher = new OrderHasher(domain);
    await fc.assert(
      fc.asyncProperty(orderArbitrary(64), async (order) => {
        const onChain = await devnet.public.readContract({
          address: reactor,
          abi: PartialFillLimitOrderReactor.abi,
          functionName: 'orderDigest',
          args: [order],
        });
        expect(onChain).toBe(bytesToHex(hasher.digest(order)));
        expect(onChain).toBe(
          hashTypedData({ domain, types: ORDER_EIP712_TYPES, primaryType: 'PartialFillLimitOrder', message: order }),
        );
      }),
      { numRuns: 25 },
    );
  });
});

const balancesOf = (...owners: Address[]) =>
  Promise.all(owners.flatMap((owner) => [balance(BASE, owner), balance(QUOTE, owner)]));

describe('settle', () => {
  it('moves the tokens of a fill exactly, fees to the fee recipient, rounding both fees down', async () => {
    const maker = await trader();
    const taker = await trader();
    // The maker sells 10 BASE at 0.25 QUOTE; the taker buys up to 5 BASE at 0.26.
    const ask = await sellBase(maker, 10n * E8, 2_500_000n).signedBy(maker, domain);
    const bid = await buyBase(taker, 5n * E8, 1_300_000n).signedBy(taker, domain);
    const parties = [maker.account.address, taker.account.address, FEES];
    const [makerBase, makerQuote, takerBase, takerQuote, feeBase, feeQuote] = (await balancesOf(...parties)) as bigint[] as [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    const id = newFillId();
    // 4.00000001 BASE for 1.000001 QUOTE: the least the maker's price allows.
    const { outcomes, events } = await settle(
      [ask, bid],
      [fill(id, 0, 1, 4n * E8 + 1n, 1_000_001n, { makerFeePips: 1_000, takerFeePips: 3_000 })],
    );
    expect(outcomes).toEqual(['None']);
    // Taker fee: 3,000 pips of 400,000,001 = 1,200,000.003 -> 1,200,000.
    // Maker fee: 1,000 pips of 1,000,001 = 1,000.001 -> 1,000.
    expect(events.find((event) => event.eventName === 'Filled')?.args).toEqual({
      fillId: id,
      makerHash: await digestOf(ask),
      takerHash: await digestOf(bid),
      maker: maker.account.address,
      taker: taker.account.address,
      makerAmount: 4n * E8 + 1n,
      takerAmount: 1_000_001n,
      makerFee: 1_000n,
      takerFee: 1_200_000n,
    });
    expect(await balancesOf(...parties)).toEqual([
      makerBase - (4n * E8 + 1n),
      makerQuote + 1_000_001n - 1_000n,
      takerBase + 4n * E8 + 1n - 1_200_000n,
      takerQuote - 1_000_001n,
      feeBase + 1_200_000n,
      feeQuote + 1_000n,
    ]);
    expect(await filledOf(ask)).toBe(4n * E8 + 1n);
    expect(await filledOf(bid)).toBe(1_000_001n);
  });
});

/** An ask of 10 BASE at 0.25 and a bid of 10 BASE at 0.26 by fresh traders, and a fill of 4 BASE at 0.25. */
async function crossingPair(change: { ask?: (o: TestOrder) => TestOrder; bid?: (o: TestOrder) => TestOrder } = {}) {
  const maker = await trader();
  const taker = await trader();
  const ask = await (change.ask ?? ((o) => o))(sellBase(maker, 10n * E8, 2_500_000n)).signedBy(maker, domain);
  const bid = await (change.bid ?? ((o) => o))(buyBase(taker, 10n * E8, 2_600_000n)).signedBy(taker, domain);
  return { maker, taker, ask, bid, fill: (fees = {}) => fill(newFillId(), 0, 1, 4n * E8, 1_000_000n, fees) };
}

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('settle rejects a fill', () => {
  it('whose order was signed for another chain id', async () => {
    const { taker, ask, fill } = await crossingPair();
    const bid = await buyBase(taker, 10n * E8, 2_600_000n).signedBy(taker, { ...domain, chainId: 296 });
    expect(await simulate([ask, bid], [fill()])).toEqual(['BadSignature']);
  });

  it('whose order names another reactor, or was signed for another reactor', async () => {
    const other = '0x0000000000000000000000000000000000000bad' as Address;
    const { maker, taker, bid, fill } = await crossingPair();
    const named = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ info: { reactor: other } })
      .signedBy(maker, domain);
    expect(await simulate([named, bid], [fill()])).toEqual(['WrongReactor']);
    const signed = await buyBase(taker, 10n * E8, 2_600_000n).signedBy(taker, { ...domain, verifyingContract: other });
    expect(await simulate([named, signed], [fill()])).toEqual(['WrongReactor']);
    const { ask } = await crossingPair();
    expect(await simulate([ask, signed], [fill()])).toEqual(['BadSignature']);
  });

  it('signed by another key, or with a high-s signature', async () => {
    const { taker, ask, bid, fill } = await crossingPair();
    const forged = await sellBase(taker, 10n * E8, 2_500_000n).signedBy(taker, domain);
    expect(await simulate([{ order: ask.order, signature: forged.signature }, bid], [fill()])).toEqual(['BadSignature']);
    // The same signature with s' = n - s and the other v verifies in ecrecover; the reactor refuses it.
    const raw = bid.signature.slice(4);
    const s = BigInt(`0x${raw.slice(64, 128)}`);
    const v = Number.parseInt(raw.slice(128, 130), 16);
    const malleable =
      `0x00${raw.slice(0, 64)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as const;
    expect(await simulate([ask, { order: bid.order, signature: malleable }], [fill()])).toEqual(['BadSignature']);
    expect(await simulate([ask, { order: bid.order, signature: `0x01${raw}` }], [fill()])).toEqual(['BadSignature']);
  });

  it('past its deadline', async () => {
    const past = BigInt(Math.floor(Date.now() / 1000) - 60);
    const { ask, bid, fill } = await crossingPair({ bid: (o) => o.with({ info: { deadline: past } }) });
    expect(await simulate([ask, bid], [fill()])).toEqual(['Expired']);
  });

  it('that would fill more than the signed input, in one fill or across fills', async () => {
    const { ask, bid } = await crossingPair();
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 1, 10n * E8 + 1n, 2_600_000n)])).toEqual(['MakerOverfill']);
    const { outcomes } = await settle(
      [ask, bid],
      [
        fill(newFillId(), 0, 1, 6n * E8, 1_500_000n),
        fill(newFillId(), 0, 1, 4n * E8, 1_000_000n),
        fill(newFillId(), 0, 1, 1n, 1n),
      ],
    );
    expect(outcomes).toEqual(['None', 'None', 'MakerOverfill']);
    expect(await filledOf(ask)).toBe(10n * E8);
  });

  it('that pays either side below its signed price, blaming neither: the operator stated the amounts', async () => {
    const { ask, bid } = await crossingPair();
    // 4 BASE for 0.999999 QUOTE: below the maker's 0.25; for 1.04 + 1: above the taker's 0.26.
    const below = await outcomes([ask, bid], [fill(newFillId(), 0, 1, 4n * E8, 999_999n)]);
    expect(below).toEqual([{ reason: 'MakerPrice', party: 'None' }]);
    const above = await outcomes([ask, bid], [fill(newFillId(), 0, 1, 4n * E8, 1_040_001n)]);
    expect(above).toEqual([{ reason: 'TakerPrice', party: 'None' }]);
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 1, 4n * E8, 1_040_000n)])).toEqual(['None']);
  });

  it('that pays a side below its signed price over all its fills, but settles one that an earlier fill paid ahead for', async () => {
    // A seller of 3 BASE units for at least 1 QUOTE unit, and buyers at the same rate, to the unit:
    // each unit is worth a third of a QUOTE unit, so fills of one or two units must round.
    const maker = await trader();
    const ask = await sellBase(maker, 3n, 1n).signedBy(maker, domain);
    const first = await trader();
    const second = await trader();
    const generous = await buyBase(first, 1n, 1n).signedBy(first, domain);
    const exact = await buyBase(second, 3n, 1n).signedBy(second, domain);
    // Alone, two units for nothing is below the maker's rate.
    expect(await simulate([ask, exact], [fill(newFillId(), 0, 1, 2n, 0n)])).toEqual(['MakerPrice']);
    // One unit for a whole QUOTE unit first (a third more than its rate), then two for nothing.
    const { outcomes: settled } = await settle(
      [ask, generous, exact],
      [fill(newFillId(), 0, 1, 1n, 1n), fill(newFillId(), 0, 2, 2n, 0n)],
    );
    expect(settled).toEqual(['None', 'None']);
    const progress = await devnet.public.readContract({
      address: reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'progress',
      args: [await digestOf(ask)],
    });
    expect(progress).toEqual([3n, 1n]);
    expect(await filledOf(ask)).toBe(3n);
  });

  it('with a fee above either signed cap', async () => {
    const { ask, bid, fill } = await crossingPair();
    expect(await simulate([ask, bid], [fill({ makerFeePips: 1_001 })])).toEqual(['MakerFeeCap']);
    expect(await simulate([ask, bid], [fill({ takerFeePips: 3_001 })])).toEqual(['TakerFeeCap']);
    expect(await simulate([ask, bid], [fill({ makerFeePips: 1_000, takerFeePips: 3_000 })])).toEqual(['None']);
  });

  it('that makes a makerOnly order take, or a takerOnce order take twice', async () => {
    const makerOnly = await crossingPair({ bid: (o) => o.with({ makerOnly: true }) });
    expect(await simulate([makerOnly.ask, makerOnly.bid], [makerOnly.fill()])).toEqual(['MakerOnly']);
    expect(await simulate([makerOnly.bid, makerOnly.ask], [fill(newFillId(), 0, 1, 1_000_000n, 4n * E8)])).toEqual(['None']);

    const once = await crossingPair({ bid: (o) => o.with({ takerOnce: true }) });
    const { outcomes } = await settle([once.ask, once.bid], [once.fill(), once.fill()]);
    expect(outcomes).toEqual(['None', 'TakerOnce']);
    // It may still be the maker of a later fill.
    expect(await simulate([once.bid, once.ask], [fill(newFillId(), 0, 1, 1_000_000n, 4n * E8)])).toEqual(['None']);
  });

  it('whose tokens do not match, whose orders are the same, or whose indexes or amounts are bad', async () => {
    const { maker, ask, bid, fill: pairFill } = await crossingPair();
    const wrong = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ input: { token: QUOTE, amount: 10n * E8 } })
      .signedBy(maker, domain);
    expect(await simulate([wrong, bid], [pairFill()])).toEqual(['TokenMismatch']);
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 0, 1n, 1n)])).toEqual(['SameOrder']);
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 2, 1n, 1n)])).toEqual(['BadIndex']);
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 1, 0n, 0n)])).toEqual(['ZeroAmount']);
    // Nothing for something breaks the payer's signed rate.
    expect(await simulate([ask, bid], [fill(newFillId(), 0, 1, 0n, 1n)])).toEqual(['TakerPrice']);
    const validated = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ info: { additionalValidationContract: FEES } })
      .signedBy(maker, domain);
    expect(await simulate([validated, bid], [pairFill()])).toEqual(['ValidationContract']);
  });

  it('whose maker or taker cannot pay, leaving every balance as it was', async () => {
    const { ask, bid, maker, taker, fill: pairFill } = await crossingPair();
    const poor = await trader(0n, 0n);
    const poorAsk = await sellBase(poor, 10n * E8, 2_500_000n).signedBy(poor, domain);
    const poorBid = await buyBase(poor, 10n * E8, 2_600_000n).signedBy(poor, domain);
    const parties = [maker.account.address, taker.account.address, poor.account.address];
    const before = await balancesOf(...parties);
    const { outcomes } = await settle([poorAsk, bid, ask, poorBid], [pairFill(), fill(newFillId(), 2, 3, 4n * E8, 1_000_000n)]);
    expect(outcomes).toEqual(['MakerTransfer', 'TakerTransfer']);
    expect(await balancesOf(...parties)).toEqual(before);
  });

  it('already settled, in the same batch or a later one, and settles the others of its batch', async () => {
    const { ask, bid } = await crossingPair();
    const id = newFillId();
    const first = await settle([ask, bid], [fill(id, 0, 1, 1n * E8, 250_000n), fill(id, 0, 1, 1n * E8, 250_000n)]);
    expect(first.outcomes).toEqual(['None', 'AlreadySettled']);
    const second = await settle([ask, bid], [fill(id, 0, 1, 1n * E8, 250_000n), fill(newFillId(), 0, 1, 1n * E8, 250_000n)]);
    expect(second.outcomes).toEqual(['AlreadySettled', 'None']);
    expect(second.events.filter((event) => event.eventName === 'FillRejected').map((event) => event.args)).toEqual([
      { fillId: id, makerHash: await digestOf(ask), takerHash: await digestOf(bid), reason: 1, party: 0 },
    ]);
    expect(await filledOf(ask)).toBe(2n * E8);
  });

  it('only from the operator', async () => {
    const { ask, bid, taker, fill: pairFill } = await crossingPair();
    await expect(
      devnet.public.simulateContract({
        account: taker.account,
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'settle',
        args: [[ask, bid], [pairFill()], []],
      }),
    ).rejects.toThrow(/NotOperator/);
  });
});

describe('cancellation', () => {
  it('by the swapper or the operator voids the order for good, and nobody else can cancel it', async () => {
    const { ask, bid, taker, maker, fill: pairFill } = await crossingPair();
    const askHash = await digestOf(ask);
    const bidHash = await digestOf(bid);
    // Another account cancelling the maker's hash touches only its own namespace.
    await send(
      taker.writeContract({ address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'cancel', args: [[askHash]] }),
    );
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['None']);

    const byMaker = await send(
      maker.writeContract({ address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'cancel', args: [[askHash]] }),
    );
    expect(parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: byMaker.logs }).map((event) => event.args)).toEqual([
      { orderHash: askHash, swapper: maker.account.address, by: maker.account.address },
    ]);
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['Cancelled']);

    const { ask: other } = await crossingPair();
    await send(
      operator.writeContract({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'cancelFor',
        args: [taker.account.address, [bidHash]],
      }),
    );
    expect(await simulate([other, bid], [pairFill()])).toEqual(['Cancelled']);
    await expect(
      devnet.public.simulateContract({
        account: taker.account,
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'cancelFor',
        args: [maker.account.address, [askHash]],
      }),
    ).rejects.toThrow(/NotOperator/);
  });

  it('by nonce floor voids every order below the floor, and the floor only rises', async () => {
    const { ask, bid, maker, fill: pairFill } = await crossingPair({ ask: (o) => o.with({ info: { nonce: 100n } }) });
    const cancelAll = (floor: bigint) =>
      send(
        maker.writeContract({
          address: reactor,
          abi: PartialFillLimitOrderReactor.abi,
          functionName: 'cancelAll',
          args: [floor],
        }),
      );
    await cancelAll(100n);
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['None']);
    await cancelAll(101n);
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['NonceBelowFloor']);
    await cancelAll(50n);
    expect(
      await devnet.public.readContract({
        address: reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'nonceFloor',
        args: [maker.account.address],
      }),
    ).toBe(101n);
    const later = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ info: { nonce: 101n } })
      .signedBy(maker, domain);
    expect(await simulate([later, bid], [pairFill()])).toEqual(['None']);
  });
});

describe('forgetExpired', () => {
  const cancelledOf = async (swapper: Wallet, signed: SignedOrder) =>
    devnet.public.readContract({
      address: reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'cancelled',
      args: [swapper.account.address, await digestOf(signed)],
    });

  it("frees an expired order's filled amount and cancellation, from anyone, and leaves a live order's", async () => {
    const { timestamp } = await devnet.public.getBlock();
    const soon = timestamp + 2n;
    const { maker, taker, ask, bid, fill: pairFill } = await crossingPair({ ask: (o) => o.with({ info: { deadline: soon } }) });
    await settle([ask, bid], [pairFill()]);
    const cancelledAsk = await sellBase(maker, E8, 250_000n)
      .with({ info: { deadline: soon, nonce: 2n } })
      .signedBy(maker, domain);
    const cancel = { address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'cancel' } as const;
    await send(maker.writeContract({ ...cancel, args: [[await digestOf(cancelledAsk)]] }));
    const forget = { address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'forgetExpired' } as const;
    const orders = [ask.order, cancelledAsk.order, bid.order];
    // Before the deadline nothing is forgotten.
    await send(taker.writeContract({ ...forget, args: [orders] }));
    expect([await filledOf(ask), await cancelledOf(maker, cancelledAsk)]).toEqual([4n * E8, true]);

    // Blocks are mined on arrival: mine empty ones until the chain's clock has passed the deadline.
    while ((await devnet.public.getBlock()).timestamp <= soon) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await devnet.test.mine({ blocks: 1 });
    }
    await send(taker.writeContract({ ...forget, args: [orders] }));
    expect([await filledOf(ask), await cancelledOf(maker, cancelledAsk)]).toEqual([0n, false]);
    expect(await filledOf(bid)).toBe(1_000_000n);
    // What was forgotten cannot be used again: the deadline refuses it first.
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['Expired']);
    expect(await simulate([cancelledAsk, bid], [pairFill()])).toEqual(['Expired']);
  });
});

describe('outcomes', () => {
  it("blame the order at fault: the maker's or the taker's, or neither", async () => {
    const past = BigInt(Math.floor(Date.now() / 1000) - 60);
    const expiredTaker = await crossingPair({ bid: (o) => o.with({ info: { deadline: past } }) });
    const expiredMaker = await crossingPair({ ask: (o) => o.with({ info: { deadline: past } }) });
    const poorMaker = await trader(0n, 0n);
    const poorAsk = await sellBase(poorMaker, 10n * E8, 2_500_000n).signedBy(poorMaker, domain);
    expect(
      await outcomes(
        [expiredTaker.ask, expiredTaker.bid, expiredMaker.ask, expiredMaker.bid, poorAsk],
        [
          fill(newFillId(), 0, 1, 4n * E8, 1_000_000n),
          fill(newFillId(), 2, 3, 4n * E8, 1_000_000n),
          fill(newFillId(), 4, 1, 4n * E8, 1_000_000n, { takerFeePips: 3_001 }),
          fill(newFillId(), 0, 0, 1n, 1n),
        ],
      ),
    ).toEqual([
      { reason: 'Expired', party: 'Taker' },
      { reason: 'Expired', party: 'Maker' },
      { reason: 'Expired', party: 'Taker' },
      { reason: 'SameOrder', party: 'None' },
    ]);
    const { ask, bid } = await crossingPair();
    expect(
      await outcomes(
        [poorAsk, bid, ask],
        [fill(newFillId(), 0, 1, 4n * E8, 1_000_000n), fill(newFillId(), 2, 1, 4n * E8, 1_000_000n, { takerFeePips: 3_001 })],
      ),
    ).toEqual([
      { reason: 'MakerTransfer', party: 'Maker' },
      { reason: 'TakerFeeCap', party: 'Taker' },
    ]);
  });

  it('list the Reject and Party enums of the contract in order', () => {
    const source = readFileSync(new URL('../src/PartialFillLimitOrderReactor.sol', import.meta.url), 'utf8');
    const members = (name: string) =>
      (new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(source)?.[1] ?? '')
        .replace(/\/\/[^\n]*/g, '')
        .split(',')
        .map((member) => member.trim());
    expect(members('Reject')).toEqual([...REJECT_REASONS]);
    expect(members('Party')).toEqual([...PARTIES]);
  });
});

describe('the live events', () => {
  it('records every book fill as the live reactor does: a MakerFill and a TakerFill per order, with the live topics', async () => {
    const { maker, taker, ask, bid } = await crossingPair();
    const id = newFillId();
    const { receipt } = await settle(
      [ask, bid],
      [fill(id, 0, 1, 4n * E8, 1_000_000n, { makerFeePips: 1_000, takerFeePips: 3_000 })],
    );
    const topic = (signature: string) => keccak256(toHex(signature));
    expect(topic('TakerFill(bytes32,address,address,uint256,uint256,uint256,uint256)')).toBe(
      '0x23bba268b673b5743e86e68e78da4b5921d2ed78a0fc060ee03b7b37978e1b08',
    );
    expect(topic('MakerFill(bytes32,address,address,uint256,uint256,uint256,uint256,uint256)')).toBe(
      '0x95f691cfd97e4dfb155eafc3c9c45a9c3d3e1c7f54c092973ddb87e731f4f388',
    );
    const events = parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs });
    expect(events.find((event) => event.eventName === 'MakerFill')?.args).toEqual({
      orderHash: await digestOf(ask),
      filler: operator.account.address,
      swapper: maker.account.address,
      nonce: 1n,
      principalFilled: 4n * E8,
      outputAmount: 1_000_000n,
      makerFee: 1_000n,
      rebate: 0n,
    });
    expect(events.find((event) => event.eventName === 'TakerFill')?.args).toEqual({
      orderHash: await digestOf(bid),
      filler: operator.account.address,
      swapper: taker.account.address,
      nonce: 1n,
      principalFilled: 1_000_000n,
      outputAmount: 4n * E8,
      takerFee: 1_200_000n,
    });
  });
});

describe('fees', () => {
  it('never charge more than the signed cap, not even on a fill of a few units', async () => {
    const { ask, bid, taker } = await crossingPair();
    const before = await balance(BASE, taker.account.address);
    // 3,000 pips of 400 units is 1.2: 1 unit, not 2 (which would be 5,000 pips).
    const { events } = await settle(
      [ask, bid],
      [fill(newFillId(), 0, 1, 400n, 1n, { makerFeePips: 1_000, takerFeePips: 3_000 })],
    );
    expect(events.find((event) => event.eventName === 'Filled')?.args).toMatchObject({ makerFee: 0n, takerFee: 1n });
    expect(await balance(BASE, taker.account.address)).toBe(before + 399n);
  });

  it('pay a maker rebate out of the taker fee, never above its share of it: the maker pays that much less', async () => {
    const { ask, bid, maker } = await crossingPair();
    const before = await balance(BASE, maker.account.address);
    // Taker fee: 3,000 pips of 4 BASE = 1,200,000; the rebate of 500 pips (200,000) is within a quarter of it.
    const { events } = await settle(
      [ask, bid],
      [fill(newFillId(), 0, 1, 4n * E8, 1_000_000n, { takerFeePips: 3_000, makerRebatePips: 500, rebateCapPips: 250_000 })],
    );
    expect(events.find((event) => event.eventName === 'MakerFill')?.args).toMatchObject({ makerFee: 0n, rebate: 200_000n });
    expect(await balance(BASE, maker.account.address)).toBe(before - 4n * E8 + 200_000n);
    // A rebate capped at a tenth of the taker fee: 120,000.
    const capped = await settle(
      [ask, bid],
      [fill(newFillId(), 0, 1, 4n * E8, 1_000_000n, { takerFeePips: 3_000, makerRebatePips: 500, rebateCapPips: 100_000 })],
    );
    expect(capped.events.find((event) => event.eventName === 'MakerFill')?.args).toMatchObject({ rebate: 120_000n });
    // A rebate and a maker fee at once, or a cap above the whole fee, is the operator's mistake.
    expect(await outcomes([ask, bid], [fill(newFillId(), 0, 1, E8, 250_000n, { makerFeePips: 1, makerRebatePips: 1 })])).toEqual([
      { reason: 'BadRebate', party: 'None' },
    ]);
    expect(
      await outcomes([ask, bid], [fill(newFillId(), 0, 1, E8, 250_000n, { makerRebatePips: 1, rebateCapPips: 1_000_001 })]),
    ).toEqual([{ reason: 'BadRebate', party: 'None' }]);
  });
});

describe('a recipient that cannot receive', () => {
  let frozen: Address;

  beforeAll(async () => {
    frozen = await devnet.deploy(operator, FreezingToken, []);
    await send(
      operator.writeContract({
        address: frozen,
        abi: FreezingToken.abi,
        functionName: 'initialize',
        args: ['Frozen USD', 'FUSD', 6, operator.account.address],
      }),
    );
  });

  const freeze = (account: Address) =>
    send(operator.writeContract({ address: frozen, abi: FreezingToken.abi, functionName: 'setFrozen', args: [account, true] }));

  it("is blamed on its own order, and the counterparty's order settles with another", async () => {
    const maker = await trader(1_000n * E8, 0n, frozen);
    const honest = await trader(1_000n * E8, 0n, frozen);
    const taker = await trader(0n, 100n * E6, frozen);
    const ask = await sellBase(maker, 10n * E8, 2_500_000n, frozen).signedBy(maker, domain);
    const other = await sellBase(honest, 10n * E8, 2_500_000n, frozen).signedBy(honest, domain);
    const bid = await buyBase(taker, 10n * E8, 2_600_000n, frozen).signedBy(taker, domain);
    // The maker's account is frozen in the token it would receive.
    await freeze(maker.account.address);
    const { outcomes: settled } = await settle(
      [ask, bid, other],
      [fill(newFillId(), 0, 1, 4n * E8, 1_000_000n), fill(newFillId(), 2, 1, 4n * E8, 1_000_000n)],
    );
    expect(settled).toEqual(['MakerRefused', 'None']);
    expect(await outcomes([ask, bid], [fill(newFillId(), 0, 1, 4n * E8, 1_000_000n)])).toEqual([
      { reason: 'MakerRefused', party: 'Maker' },
    ]);
    expect(await balance(frozen, honest.account.address)).toBe(1_000_000n);
  });

  it('blames the taker whose recipient refuses, the other way round', async () => {
    const maker = await trader(0n, 100n * E6, frozen);
    const taker = await trader(1_000n * E8, 0n, frozen);
    // The maker buys BASE with the frozen token; the taker sells BASE and would receive it.
    const bid = await buyBase(maker, 10n * E8, 2_600_000n, frozen).signedBy(maker, domain);
    const ask = await sellBase(taker, 10n * E8, 2_500_000n, frozen).signedBy(taker, domain);
    await freeze(taker.account.address);
    expect(await outcomes([bid, ask], [fill(newFillId(), 0, 1, 1_000_000n, 4n * E8)])).toEqual([
      { reason: 'TakerRefused', party: 'Taker' },
    ]);
  });
});

describe('nonce floors', () => {
  it("set by the operator never stop the swapper raising its own: the user's cancelAll always works", async () => {
    const { maker } = await crossingPair();
    const call = { address: reactor, abi: PartialFillLimitOrderReactor.abi } as const;
    await send(operator.writeContract({ ...call, functionName: 'cancelAllFor', args: [maker.account.address, 2n ** 256n - 1n] }));
    const own = await send(maker.writeContract({ ...call, functionName: 'cancelAll', args: [5n] }));
    expect(parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: own.logs }).map((event) => event.args)).toEqual([
      { swapper: maker.account.address, nonceFloor: 5n, by: maker.account.address },
    ]);
    expect(await devnet.public.readContract({ ...call, functionName: 'swapperFloor', args: [maker.account.address] })).toBe(5n);
    expect(await devnet.public.readContract({ ...call, functionName: 'nonceFloor', args: [maker.account.address] })).toBe(
      2n ** 256n - 1n,
    );
  });
});

// Last: it installs the ledger's key service at 0x16a, which every later signature check asks.
describe('with the ledger key service', () => {
  beforeAll(async () => {
    await installAccountKeyService(devnet, await devnet.newWallet());
  });

  it("checks a secp256k1 order against the account's current key: a rotated-out key signs nothing valid", async () => {
    const { maker, ask, bid, fill: pairFill } = await crossingPair();
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['None']);
    const next = await devnet.newWallet();
    await send(
      maker.writeContract({
        address: ACCOUNT_KEY_SERVICE_ADDRESS,
        abi: DevnetAccountKeyService.abi,
        functionName: 'rotateEcdsaKey',
        args: [maker.account.address, next.account.address],
      }),
    );
    const oldKey = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ info: { nonce: 2n } })
      .signedBy(maker, domain);
    expect(await outcomes([oldKey, bid], [pairFill()])).toEqual([{ reason: 'BadSignature', party: 'Maker' }]);
    const newKey = await sellBase(maker, 10n * E8, 2_500_000n)
      .with({ info: { nonce: 3n } })
      .signedBy(next, domain);
    expect(await simulate([newKey, bid], [pairFill()])).toEqual(['None']);
  });

  it('treats a key service that fails as no answer: nobody is blamed, and the order is tried again later', async () => {
    const { ask, bid, fill: pairFill } = await crossingPair();
    const code = DevnetAccountKeyService.deployedBytecode;
    await devnet.test.setCode({ address: ACCOUNT_KEY_SERVICE_ADDRESS, bytecode: '0x60006000fd' }); // revert(0, 0)
    try {
      expect(await outcomes([ask, bid], [pairFill()])).toEqual([{ reason: 'KeyServiceFailed', party: 'None' }]);
    } finally {
      await devnet.test.setCode({ address: ACCOUNT_KEY_SERVICE_ADDRESS, bytecode: code });
    }
    expect(await simulate([ask, bid], [pairFill()])).toEqual(['None']);
  });
});
