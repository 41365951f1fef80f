import {
  type DevnetWallet,
  FreezingToken,
  outcomeOf,
  PartialFillLimitOrderReactor,
  PERMIT2_ADDRESS,
  permit2Approvals,
  TestToken,
} from '@dex/contracts';
import { BUY, parseWireOrder, SELL } from '@dex/core';
import type { UserEventMessage } from '@dex/protocol';
import { type Address, createPublicClient, getAddress, type Hex, http, maxUint256, type TransactionReceipt, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../composition/logging.js';
import { storeFile } from '../../../composition/store-choice.js';
import { fund, tokenBalance } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader } from '../../../test-support/harness.js';
import { StreamClient, streamUrl } from '../../../test-support/stream-client.js';
import { openDatabase } from '../../sqlite/driver.js';
import { DevnetIssuer } from '../devnet/devnet-issuer.js';
import { ReactorIndexer } from '../indexing/reactor-indexer.js';
import { ChainFundsReader, RECENT_HOLDINGS_MS } from '../reads/funds-reader.js';
import { settledFillWordSlot } from './settled-fill-ids.js';

const WHBAR = 100_000_000n; // 1 WHBAR in raw units (8 decimals)

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()), listen: true });
});

afterAll(async () => {
  await h?.close();
});

function settlement(host: Harness = h) {
  const value = host.services.settlement;
  if (value === null) throw new Error('settlement is off');
  return value;
}

async function fundedTrader(make: (host: Harness) => Promise<Trader>, host: Harness = h): Promise<Trader> {
  return fund(host, await make(host));
}

const balanceOf = (token: string, owner: string): Promise<bigint> => tokenBalance(h, token, owner);

/** Waits until no trade waits for settlement, then reads the trade tape of book 1 (past its cache). */
async function settledTape(host: Harness = h): Promise<{ transactionHash: string }[]> {
  const { store } = host.services;
  for (let attempt = 0; attempt < 200; attempt++) {
    settlement(host).settler.wake();
    if ((await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0) {
      host.clock.advance(60_000);
      const reply = await host.app.inject({ method: 'GET', url: '/trades/1?limit=100' });
      return (reply.json() as { trades: { transactionHash: string }[] }).trades;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('trades were not settled in time');
}

describe('settlement on the devnet chain', () => {
  it('settles the trades of a secp256k1 wallet and an Ed25519 account through the reactor: balances move exactly by the fills and fees, tape and histories carry the hash', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const { base, quote } = market;
    const parties = [maker.swapper, taker.swapper, settlement().chain.operator.account.address];
    const before = await Promise.all(
      parties.flatMap((owner) => [balanceOf(base.evmAddress, owner), balanceOf(quote.evmAddress, owner)]),
    );

    // Asks of 2 @ 0.25 and 3 @ 0.251; the taker buys 4: 2 @ 0.25 and 2 @ 0.251.
    const asks = await maker.place([maker.limitRequest(1, SELL, 25_000, 20), maker.limitRequest(1, SELL, 25_100, 30)]);
    const bid = await taker.limit(1, BUY, 25_200, 40);
    const tape = await settledTape();
    expect(tape).toHaveLength(2);
    for (const trade of tape) expect(trade.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

    const baseMoved = 4n * WHBAR;
    const quoteMoved = 2n * 250_000n + 2n * 251_000n; // 1.002 USDC
    const { takerFeePips, makerFeePips } = market.book;
    const takerFees = [2n * WHBAR, 2n * WHBAR].reduce(
      (sum, amount) => sum + (amount * BigInt(takerFeePips) + 999_999n) / 1_000_000n,
      0n,
    );
    const makerFees = [500_000n, 502_000n].reduce((sum, amount) => sum + (amount * BigInt(makerFeePips)) / 1_000_000n, 0n);
    const after = await Promise.all(
      parties.flatMap((owner) => [balanceOf(base.evmAddress, owner), balanceOf(quote.evmAddress, owner)]),
    );
    expect(after).toEqual([
      (before[0] as bigint) - baseMoved,
      (before[1] as bigint) + quoteMoved - makerFees,
      (before[2] as bigint) + baseMoved - takerFees,
      (before[3] as bigint) - quoteMoved,
      (before[4] as bigint) + takerFees,
      (before[5] as bigint) + makerFees,
    ]);

    for (const [trader, id] of [
      [maker, asks[0]?.id],
      [taker, bid.id],
    ] as const) {
      const history = await trader.request<{ events: { type: string; txHash: string | null }[] }>('GET', `/orders/${id}/history`);
      const fills = history.body.events.filter((event) => event.type === 'PARTIAL_FILL' || event.type === 'FILLED');
      expect(fills.length).toBeGreaterThan(0);
      for (const fill of fills) expect(tape.map((trade) => trade.transactionHash)).toContain(fill.txHash);
    }
  });
});

describe('maker rebates on the devnet chain', () => {
  it("pays a negative maker fee out of the taker's fee, at most its cap's share of that fee", async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.secp256k1(host));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const rebatePips = 300n;
    const capFractionPips = 250_000n;
    await h.services.store.feeOverrides.set({
      account: maker.account,
      bookId: 1,
      takerFeePips: market.book.takerFeePips,
      makerFeePips: -Number(rebatePips),
      capFractionPips: Number(capFractionPips),
      updatedAt: h.clock.now(),
    });
    const base = market.base.evmAddress;
    const feeRecipient = settlement().chain.operator.account.address;
    const parties = [maker.swapper, taker.swapper, feeRecipient];
    const before = await Promise.all(parties.map((owner) => balanceOf(base, owner)));

    await maker.limit(1, SELL, 24_000, 20);
    await taker.limit(1, BUY, 24_000, 20);
    await settledTape();

    const sold = 2n * WHBAR;
    const takerFee = (sold * BigInt(market.book.takerFeePips)) / 1_000_000n;
    // 300 pips of 2 WHBAR is 60,000 units; the cap, a quarter of the taker's fee, is 50,000.
    const rebate = [(sold * rebatePips) / 1_000_000n, (takerFee * capFractionPips) / 1_000_000n].reduce((a, b) =>
      a < b ? a : b,
    );
    expect(rebate).toBe(50_000n);
    const after = await Promise.all(parties.map((owner) => balanceOf(base, owner)));
    expect(after).toEqual([
      (before[0] as bigint) - sold + rebate,
      (before[1] as bigint) + sold - takerFee,
      (before[2] as bigint) + takerFee - rebate,
    ]);
  });
});

/** Polls `check` until it returns a value, waking the settlement loops between tries. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, host: Harness = h): Promise<T> {
  for (let attempt = 0; attempt < 200; attempt++) {
    settlement(host).settler.wake();
    settlement(host).cancels.wake();
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface HistoryEvent {
  type: string;
  txHash: string | null;
  reason: string | null;
}

async function historyOf(trader: Trader, id: number): Promise<HistoryEvent[]> {
  return (await trader.request<{ events: HistoryEvent[] }>('GET', `/orders/${id}/history`)).body.events;
}

const canceledEvent = (trader: Trader, id: number, host: Harness = h) =>
  eventually(
    async () => (await historyOf(trader, id)).find((event) => event.type === 'CANCELED'),
    `order ${id} to be CANCELED`,
    host,
  );

/** Sends `call` as `holder` through anvil's impersonation (with gas money) and waits until it is mined. */
async function sendAs(holder: Address, call: WriteCall, host: Harness = h): Promise<TransactionReceipt> {
  const { chain } = settlement(host);
  const devnet = chain.devnet;
  if (devnet === null) throw new Error('not a devnet');
  await devnet.test.setBalance({ address: holder, value: 10n ** 18n });
  await devnet.test.impersonateAccount({ address: holder });
  try {
    return await chain.public.waitForTransactionReceipt({ hash: await devnet.wallet(holder).writeContract(call) });
  } finally {
    await devnet.test.stopImpersonatingAccount({ address: holder });
  }
}

type WriteCall = Parameters<DevnetWallet['writeContract']>[0];

/** Sends the holder's whole balance of `token` away, as a maker spending its funds elsewhere would. */
async function spendAll(token: Address, holder: Address, host: Harness = h): Promise<void> {
  const balance = await tokenBalance(host, token, holder);
  await sendAs(
    holder,
    {
      address: token,
      abi: TestToken.abi,
      functionName: 'transfer',
      // To the token's own address: a contract, which needs no association.
      args: [token, balance],
    },
    host,
  );
}

/** A fill of book 2 between the two, settled: after it, a batch is simulated only if the configuration asks. */
async function settledFill(maker: Trader, taker: Trader, host: Harness = h): Promise<void> {
  await maker.limit(2, SELL, 90_000, 10);
  expect((await taker.limit(2, BUY, 90_000, 10)).status).toBe('FILLED');
  await settledTape(host);
}

async function storedOrder(id: number) {
  const order = await h.services.store.orders.get(id);
  if (order === undefined) throw new Error(`no order ${id}`);
  return order;
}

/** What the reactor would do with the operator settling `maker` against `taker` for one step. */
async function simulateSettle(makerId: number, takerId: number) {
  const [maker, taker] = [await storedOrder(makerId), await storedOrder(takerId)];
  const { chain } = settlement();
  const { result } = await chain.public.simulateContract({
    account: chain.operator.account,
    address: chain.reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName: 'settle',
    args: [
      [maker, taker].map((order) => ({
        order: parseWireOrder(JSON.parse(order.signedOrder)),
        signature: order.signature as Hex,
      })),
      [
        {
          fillId: 1_000_000n + BigInt(makerId),
          maker: 0,
          taker: 1,
          makerFeePips: 0,
          takerFeePips: 0,
          makerRebatePips: 0,
          rebateCapPips: 0,
          makerAmount: 10_000_000n,
          takerAmount: 2_600_000n,
        },
      ],
      [],
    ],
  });
  return result.map(outcomeOf);
}

describe('cancellation on the devnet chain', () => {
  it('is final once the reactor confirms it; after that not even the operator can settle the order', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    const ask = await maker.limit(1, SELL, 25_000, 10);
    const bidOrder = await taker.place([taker.limitRequest(1, BUY, 24_000, 10)]);
    const reply = await maker.request('POST', '/cancel', { orderIds: [ask.id] });
    expect(reply.status).toBe(202);
    expect(reply.body).toMatchObject({ message: expect.stringMatching(/confirms each once the reactor has it/) });

    const canceled = await canceledEvent(maker, ask.id);
    expect(canceled).toMatchObject({ reason: 'USER', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const { chain } = settlement();
    const record = await storedOrder(ask.id);
    expect(
      await chain.public.readContract({
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'cancelled',
        args: [getAddress(maker.swapper), record.orderHash as Hex],
      }),
    ).toBe(true);
    expect((await simulateSettle(ask.id, bidOrder[0]?.id as number))[0]).toEqual({ reason: 'Cancelled', party: 'Maker' });
  });

  it('picks up a cancellation the swapper sends to the reactor itself', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const ask = await maker.limit(1, SELL, 26_000, 10);
    const { chain } = settlement();
    const devnet = chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    const swapper = getAddress(maker.swapper);
    await devnet.test.impersonateAccount({ address: swapper });
    const hash = await devnet.wallet(swapper).writeContract({
      address: chain.reactor,
      abi: PartialFillLimitOrderReactor.abi,
      functionName: 'cancel',
      args: [[(await storedOrder(ask.id)).orderHash as Hex]],
    });
    await devnet.test.stopImpersonatingAccount({ address: swapper });

    expect(await canceledEvent(maker, ask.id)).toMatchObject({ reason: 'USER', txHash: hash });
    const depth = await h.app.inject({ method: 'GET', url: '/depth/1' });
    expect((depth.json() as { asks: [string, string][] }).asks.map(([price]) => price)).not.toContain('0.26');
  });

  it('waits for a fill in flight: CANCELED comes after the fill settled', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.secp256k1(host));
    // Book 3 (SAUCE/WHBAR) is untouched by the other tests: the taker meets this ask only.
    const ask = await maker.limit(3, SELL, 2_000, 20);
    await settlement().settler.stop();
    await taker.limit(3, BUY, 2_000, 10);
    await maker.request('POST', '/cancel', { orderIds: [ask.id] });
    // The reactor confirms the cancellation, but the fill is not settled yet: not final.
    await eventually(
      async () => ((await h.services.store.cancellations.unsent(10)).length === 0 ? true : undefined),
      'the cancel to be sent',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await historyOf(maker, ask.id)).map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL']);

    await settlement().settler.start();
    const events = await eventually(async () => {
      const history = await historyOf(maker, ask.id);
      return history.some((event) => event.type === 'CANCELED') ? history : undefined;
    }, 'the cancellation to be final');
    expect(events.map((event) => event.type)).toEqual(['CREATED', 'PARTIAL_FILL', 'CANCELED']);
    // The fill settled before the cancellation was sent, in an earlier transaction.
    expect(events[1]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(events[2]?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(events[2]?.txHash).not.toBe(events[1]?.txHash);
  });

  it('raises the nonce floor on the reactor with cancel/all', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const orders = await maker.place([maker.limitRequest(1, SELL, 28_000, 10), maker.limitRequest(1, SELL, 28_100, 10)]);
    const highest = (await storedOrder(orders[1]?.id as number)).nonce;
    const reply = await maker.request('POST', '/cancel/all', { nonceFloor: (highest + 1n).toString() });
    expect(reply.status).toBe(202);
    for (const order of orders) expect(await canceledEvent(maker, order.id)).toMatchObject({ reason: 'NONCE_FLOOR' });
    const { chain } = settlement();
    await eventually(async () => {
      const floor = await chain.public.readContract({
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'nonceFloor',
        args: [getAddress(maker.swapper)],
      });
      return floor === highest + 1n ? floor : undefined;
    }, 'the floor on the reactor');
  });
  it('refuses a nonce floor the reactor cannot take, and relays every other floor past one that fails, also after a restart', async () => {
    const attacker = await fundedTrader((host) => Trader.secp256k1(host));
    await attacker.limit(1, SELL, 29_000, 10);
    const tooHigh = (1n << 256n).toString();
    const refused = await attacker.request<{ error: string }>('POST', '/cancel/all', { nonceFloor: tooHigh });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('nonceFloor exceeds the uint256 range');
    // What the API took before it was bounded: the row stays, and fails alone on every try.
    await h.restart(async () => {
      const db = await openDatabase(storeFile(h.config));
      try {
        db.prepare('INSERT INTO nonce_floor_relays (account, floor, tx_hash) VALUES (?, ?, NULL)').run(attacker.account, tooHigh);
      } finally {
        db.close();
      }
    });
    const victim = await fundedTrader((host) => Trader.secp256k1(host));
    const order = await victim.limit(1, SELL, 29_100, 10);
    const floor = (await storedOrder(order.id)).nonce + 1n;
    expect((await victim.request('POST', '/cancel/all', { nonceFloor: floor.toString() })).status).toBe(202);
    const { chain } = settlement();
    await eventually(async () => {
      const onChain = await chain.public.readContract({
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'nonceFloor',
        args: [getAddress(victim.swapper)],
      });
      return onChain === floor ? onChain : undefined;
    }, "the victim's floor on the reactor");
    expect(h.logs()).toContain('a cancellation could not be relayed; the others go on');
  });

  it('picks up a cancellation the swapper sends in the same block as a settlement the service applied from its receipt', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.secp256k1(host));
    // Book 3: the test above left nothing resting there.
    const [filled, cancelled] = await maker.place([
      maker.limitRequest(3, SELL, 2_100, 10),
      maker.limitRequest(3, SELL, 2_200, 10),
    ]);
    const { chain } = settlement();
    const devnet = chain.devnet;
    if (devnet === null || filled === undefined || cancelled === undefined) throw new Error('not a devnet');
    const swapper = getAddress(maker.swapper);
    await devnet.test.setAutomine(false);
    let hash: Hex;
    try {
      await taker.limit(3, BUY, 2_100, 10);
      await eventually(
        async () => ((await h.services.store.settlements.submitted()).length > 0 ? true : undefined),
        'the settlement to be sent',
      );
      await devnet.test.impersonateAccount({ address: swapper });
      hash = await devnet.wallet(swapper).writeContract({
        address: chain.reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'cancel',
        args: [[(await storedOrder(cancelled.id)).orderHash as Hex]],
      });
      await devnet.test.stopImpersonatingAccount({ address: swapper });
      await devnet.test.mine({ blocks: 1 });
    } finally {
      await devnet.test.setAutomine(true);
    }
    const { blockNumber } = await chain.public.getTransactionReceipt({ hash });
    expect(await chain.public.getBlockTransactionCount({ blockNumber })).toBe(2);

    expect(await canceledEvent(maker, cancelled.id)).toMatchObject({ reason: 'USER', txHash: hash });
    const fills = (await historyOf(maker, filled.id)).filter((event) => event.type === 'FILLED');
    expect(fills).toEqual([expect.objectContaining({ txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) })]);
  });
});

describe('funds on the devnet chain', () => {
  it('refuses an order its balance and reactor allowance do not cover, counting its open orders', async () => {
    const unfunded = await Trader.secp256k1(h);
    const refused = await unfunded.save(await unfunded.build([unfunded.limitRequest(2, SELL, 100_000, 10)]));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

    // 1,000 SAUCE: 600 resting, then 500 more is too much, 400 fits.
    const trader = await fundedTrader((host) => Trader.ed25519(host));
    await trader.limit(2, SELL, 100_000, 600);
    const over = await trader.save(await trader.build([trader.limitRequest(2, SELL, 100_000, 500)]));
    expect(over.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect((over.body as unknown as { error: string }).error).toContain('would spend 1100000000');
    expect((await trader.limit(2, SELL, 100_000, 400)).status).toBe('ACTIVE');
  });

  it('accepts an order at once after its account is funded: a refusal on holdings read moments ago is checked on the chain again', async () => {
    const trader = await Trader.secp256k1(h);
    const refused = await trader.save(await trader.build([trader.limitRequest(2, SELL, 100_000, 10)]));
    expect(refused.body).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    // The test clock stands still: the holdings read for the refusal are as recent as can be.
    await fund(h, trader);
    expect((await trader.limit(2, SELL, 100_000, 10)).status).toBe('ACTIVE');
  });

  it('reads the holdings a save asks for at most once a second per owner and token, and a fresh read every time', async () => {
    const trader = await fundedTrader((host) => Trader.secp256k1(host));
    const { chain } = settlement();
    let reads = 0;
    const counted = new Proxy(chain.public, {
      get: (target, name, receiver) => {
        if (name === 'readContract') reads++;
        return Reflect.get(target, name, receiver);
      },
    });
    const clock = new ManualClock(Date.now());
    const funds = new ChainFundsReader({ public: counted, reactor: chain.reactor }, clock, createLogger('silent'));
    const base = h.services.registry.get(1)?.base.evmAddress as string;
    const first = await funds.holdings(trader.swapper, [base], 'recent');
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    expect(await funds.holdings(trader.swapper, [base], 'recent')).toEqual(first);
    expect(reads).toBe(afterFirst);
    await funds.holdings(trader.swapper, [base], 'fresh');
    expect(reads).toBeGreaterThan(afterFirst);
    const afterFresh = reads;
    clock.advance(RECENT_HOLDINGS_MS);
    await funds.holdings(trader.swapper, [base], 'recent');
    expect(reads).toBeGreaterThan(afterFresh);
  });

  it('reports the live onboarding steps from the chain: approvals to Permit2, then to the reactor inside it', async () => {
    const trader = await Trader.secp256k1(h);
    const status = async () => (await trader.request('GET', '/onboarding/1/status')).body;
    const permit2Steps = ['approveBaseTokenPermit2', 'approveQuoteTokenPermit2'];
    const reactorSteps = ['approveBaseTokenReactor', 'approveQuoteTokenReactor'];
    const associationSteps = ['associateBaseToken', 'associateQuoteToken'];
    // The devnet's tokens pay only associated accounts, as the ledger's do: a new account has not.
    expect(await status()).toMatchObject({
      pendingSteps: [...associationSteps, ...permit2Steps, ...reactorSteps],
      isComplete: false,
    });
    const { chain } = settlement();
    const base = getAddress(h.services.registry.get(1)?.base.evmAddress as Address);
    // Our addition to the live answer: where the pending steps go, read from the chain's reactor.
    expect(await status()).toMatchObject({
      baseToken: base.toLowerCase(),
      quoteToken: h.services.registry.get(1)?.quote.evmAddress.toLowerCase(),
      reactor: chain.reactor.toLowerCase(),
      permit2: PERMIT2_ADDRESS.toLowerCase(),
    });
    const send = (call: WriteCall) => sendAs(getAddress(trader.swapper), call);
    // A direct allowance to the reactor counts for nothing: the reactor pulls through Permit2 alone.
    await send({ address: base, abi: TestToken.abi, functionName: 'associate' });
    await send({ address: base, abi: TestToken.abi, functionName: 'approve', args: [chain.reactor, maxUint256] });
    expect(await status()).toMatchObject({ pendingSteps: ['associateQuoteToken', ...permit2Steps, ...reactorSteps] });
    const [toPermit2, toReactor] = permit2Approvals(base, PERMIT2_ADDRESS, chain.reactor);
    await send(toPermit2);
    expect(await status()).toMatchObject({ pendingSteps: ['associateQuoteToken', 'approveQuoteTokenPermit2', ...reactorSteps] });
    await send(toReactor);
    expect(await status()).toMatchObject({
      pendingSteps: ['associateQuoteToken', 'approveQuoteTokenPermit2', 'approveQuoteTokenReactor'],
    });
    const tokens = await h.services.store.tokens.list();
    await DevnetIssuer.of(chain).fund(
      trader.swapper,
      tokens.map((token) => ({ token: token.evmAddress, amount: 1n })),
    );
    expect(await status()).toMatchObject({ pendingSteps: [], isComplete: true });
  });

  it('undoes a fill whose maker moved its funds away once the reactor refuses it: the maker is cancelled, the taker goes back on the book', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    await settledFill(maker, taker);
    const ask = await maker.limit(2, SELL, 90_000, 10);
    // The maker spends its SAUCE elsewhere after placing the order.
    await spendAll(h.services.registry.get(2)?.base.evmAddress as Address, getAddress(maker.swapper));

    const stream = await StreamClient.open(streamUrl(h.url, 'user-events', { token: taker.token }));
    const bid = await taker.limit(2, BUY, 90_000, 10);
    expect(bid.status).toBe('FILLED');
    const canceled = await canceledEvent(maker, ask.id);
    expect(canceled.reason).toBe('INSUFFICIENT_FUNDS');
    const back = await eventually(async () => {
      const order = await storedOrder(bid.id);
      return order.status === 'OPEN' ? order : undefined;
    }, 'the taker to be back on the book');
    expect(back.filledSteps).toBe(0);
    // The answer FILLED is corrected visibly: in the history, on the stream, and on the tape.
    const history = await taker.request<{ events: { type: string; reason: string | null }[] }>(
      'GET',
      `/orders/${bid.id}/history`,
    );
    expect(history.body.events.map((event) => event.type)).toEqual(['CREATED', 'FILLED', 'FILL_REVERTED']);
    expect(history.body.events[2]?.reason).toBe('INSUFFICIENT_FUNDS');
    const reverted = (await stream.waitFor((message) => message.type === 'ORDER_FILL_REVERTED')) as UserEventMessage;
    expect(reverted).toMatchObject({ orderId: String(bid.id), status: 'ACTIVE', filledAmount: '0' });
    await stream.close();
    const tape = (await h.app.inject({ method: 'GET', url: '/trades/2?limit=100' })).json() as { trades: { tradeId: number }[] };
    expect(tape.trades.map((trade) => trade.tradeId)).not.toContain(Number(reverted.fill?.tradeId));
    h.clock.advance(60_000);
    const depth = (await h.app.inject({ method: 'GET', url: '/depth/2' })).json() as { bids: [string, string][] };
    expect(depth.bids[0]).toEqual(['0.9', '10']);
    // Sent without a simulation (SETTLEMENT_SIMULATE=after-failure): the reactor itself refused the fill.
    expect(h.logs()).toContain('"reason":"INSUFFICIENT_FUNDS","reactor":"MakerTransfer","msg":"the reactor refused a fill"');
    expect(h.logs()).not.toContain('dropping a fill the reactor would refuse');
  });
});

describe('a recipient that cannot receive', () => {
  it('cancels the order whose recipient refuses the token, and its counterparty trades on with another', async () => {
    const { chain } = settlement();
    const devnet = chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const honest = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    // The book's quote token gets a freeze key, and the maker's account is frozen in it, as a
    // ledger token's freeze would leave it: it cannot receive the token.
    const quote = getAddress(h.services.registry.get(2)?.quote.evmAddress as Address);
    await devnet.test.setCode({ address: quote, bytecode: FreezingToken.deployedBytecode });
    try {
      const issuer = DevnetIssuer.of(chain);
      await issuer.asIssuer(async (wallet) =>
        chain.public.waitForTransactionReceipt({
          hash: await wallet.writeContract({
            address: quote,
            abi: FreezingToken.abi,
            functionName: 'setFrozen',
            args: [getAddress(maker.swapper), true],
          }),
        }),
      );
      // A price no other test of book 2 trades at.
      const ask = await maker.limit(2, SELL, 97_000, 10);
      const bid = await taker.limit(2, BUY, 97_000, 10);
      expect(bid.status).toBe('FILLED');
      expect((await canceledEvent(maker, ask.id)).reason).toBe('RECIPIENT_REFUSED');
      await eventually(
        async () => ((await storedOrder(bid.id)).status === 'OPEN' ? true : undefined),
        'the taker back on the book',
      );
      // Another maker's ask meets the taker's bid and settles.
      await honest.limit(2, SELL, 97_000, 10);
      const settled = await eventually(async () => {
        const order = await storedOrder(bid.id);
        return order.status === 'FILLED' && (await h.services.store.settlements.pending(1_000)).length === 0 ? order : undefined;
      }, "the taker's fill with the other maker to settle");
      expect(settled.filledSteps).toBeGreaterThan(0);
      expect(h.logs()).toContain('"reason":"RECIPIENT_REFUSED","reactor":"MakerRefused","msg":"the reactor refused a fill"');
    } finally {
      await devnet.test.setCode({ address: quote, bytecode: TestToken.deployedBytecode });
    }
  });
});

describe('an account not associated with the token it buys', () => {
  it('cancels its order once the reactor cannot pay it, the maker trades on with the next taker; once associated, it trades', async () => {
    const { chain } = settlement();
    const book = h.services.registry.get(2);
    if (book === undefined) throw new Error('no book 2');
    const [base, quote] = [getAddress(book.base.evmAddress), getAddress(book.quote.evmAddress)];
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const next = await fundedTrader((host) => Trader.ed25519(host));
    const buyer = await Trader.secp256k1(h);
    const account = getAddress(buyer.swapper);
    // The buyer associates itself with the quote token only, then takes the faucet's funding
    // without associations (account fund --no-associate): the base token is left out.
    await sendAs(account, { address: quote, abi: TestToken.abi, functionName: 'associate' });
    const funding = await DevnetIssuer.of(chain).fund(
      account,
      [base, quote].map((token) => ({ token, amount: 1_000n * 10n ** BigInt(book.quote.decimals) })),
      { associate: false },
    );
    expect(funding).toEqual({ associated: [], unassociated: [base] });
    expect(await balanceOf(base, account)).toBe(0n);
    const status = async () => (await buyer.request('GET', '/onboarding/2/status')).body;
    expect(await status()).toMatchObject({
      pendingSteps: ['associateBaseToken', 'approveBaseTokenPermit2', 'approveBaseTokenReactor'],
    });

    // A price no other test of book 2 trades at.
    const ask = await maker.limit(2, SELL, 96_000, 10);
    const bid = await buyer.limit(2, BUY, 96_000, 10);
    expect(bid.status).toBe('FILLED');
    expect((await canceledEvent(buyer, bid.id)).reason).toBe('RECIPIENT_REFUSED');
    expect(h.logs()).toContain('"reason":"RECIPIENT_REFUSED","reactor":"TakerRefused","msg":"the reactor refused a fill"');
    await eventually(
      async () => ((await storedOrder(ask.id)).status === 'OPEN' ? true : undefined),
      "the maker's ask back on the book",
    );
    expect((await next.limit(2, BUY, 96_000, 10)).status).toBe('FILLED');
    await eventually(async () => {
      const order = await storedOrder(ask.id);
      return order.status === 'FILLED' && (await h.services.store.settlements.pending(1_000)).length === 0 ? true : undefined;
    }, "the maker's fill with the next taker to settle");

    // The buyer sends the association the SDK's onboarding transactions name (associate() on the
    // base token, from the account), and its next bid settles.
    await sendAs(account, { address: base, abi: TestToken.abi, functionName: 'associate' });
    expect(await status()).toMatchObject({ pendingSteps: ['approveBaseTokenPermit2', 'approveBaseTokenReactor'] });
    await maker.limit(2, SELL, 96_000, 10);
    const again = await buyer.limit(2, BUY, 96_000, 10);
    expect(again.status).toBe('FILLED');
    await eventually(async () => {
      const order = await storedOrder(again.id);
      return order.status === 'FILLED' && (await h.services.store.settlements.pending(1_000)).length === 0 ? true : undefined;
    }, "the buyer's fill to settle");
    expect(await balanceOf(base, account)).toBeGreaterThan(0n);
  });
});

describe('a chain whose state outlived its history', () => {
  it('records a fill the reactor reports settled without a Filled event, warns with its id, and settles the fills after it', async () => {
    const { chain } = settlement();
    const devnet = chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const taker = await fundedTrader((host) => Trader.ed25519(host));
    await maker.limit(1, SELL, 100_000, 3);
    expect((await taker.limit(1, BUY, 100_000, 1)).status).toBe('FILLED');
    // Trade ids are global: the next one follows the trade just made.
    const lost = ((await h.services.store.trades.latest(1))?.id ?? 0) + 1;
    // The reactor's bit of the next fill id set, as a node restored from a state newer than its
    // blocks has it: settled, with no block holding the event.
    const word = settledFillWordSlot(BigInt(lost >> 8));
    const before = BigInt((await chain.public.getStorageAt({ address: chain.reactor, slot: word })) ?? '0x0');
    await devnet.test.setStorageAt({
      address: chain.reactor,
      index: word,
      value: toHex(before | (1n << BigInt(lost & 0xff)), { size: 32 }),
    });

    expect((await taker.limit(1, BUY, 100_000, 1)).status).toBe('FILLED');
    expect((await taker.limit(1, BUY, 100_000, 1)).status).toBe('FILLED');
    const tape = (await settledTape()) as { tradeId: number; transactionHash: string }[];
    expect(await h.services.store.settlements.unsettled([lost, lost + 1])).toEqual(new Set());
    expect(tape.find((trade) => trade.tradeId === lost)?.transactionHash).toBe('');
    expect(tape.find((trade) => trade.tradeId === lost + 1)?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(h.logs()).toContain(`"tradeId":${lost},"msg":"the reactor reports a fill settled that no block records`);
  });
});

describe('settlement batches on the devnet chain', () => {
  let small: Harness;

  it('gives the devnet blocks twice the settlement gas limit: back-to-back full batches never raise the base fee', async () => {
    const { chain } = h.config;
    if (chain.kind !== 'devnet') throw new Error('the harness runs the devnet chain');
    const block = await settlement().chain.public.getBlock();
    expect(block.gasLimit).toBe(2n * BigInt(chain.settlement.txGasLimit));
  });

  beforeAll(async () => {
    // 1M gas: a batch of four fills of Ed25519 orders (about 230k gas each to verify) does not fit.
    // The node keeps every block's logs, which the catch-up below reads from the first block on
    // (each funding is a dozen blocks or more: an association, a mint and two approvals per token).
    small = await startHarness(
      { CHAIN: 'devnet', SETTLEMENT_TX_GAS_LIMIT: '1000000', SETTLEMENT_SIMULATE: 'always', DEVNET_CHAIN_HISTORY_BLOCKS: '1024' },
      { clock: new ManualClock(Date.now()) },
    );
  });

  afterAll(async () => {
    await small?.close();
  });

  it('halves a batch the simulation refuses as too large for the gas limit, and still settles every fill', async () => {
    const maker = await fundedTrader((host) => Trader.ed25519(host), small);
    const taker = await fundedTrader((host) => Trader.secp256k1(host), small);
    await maker.place([20_000, 20_010, 20_020, 20_030].map((ticks) => maker.limitRequest(1, SELL, ticks, 10)));
    expect((await taker.limit(1, BUY, 20_030, 40)).status).toBe('FILLED');

    const tape = await settledTape(small);
    expect(tape).toHaveLength(4);
    const hashes = new Set(tape.map((trade) => trade.transactionHash));
    expect(hashes.size).toBeGreaterThan(1);
    for (const hash of hashes) expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(small.logs()).toContain('halving it');
  });

  it('with SETTLEMENT_SIMULATE=always, drops a fill the simulation refuses before anything is sent', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host), small);
    const taker = await fundedTrader((host) => Trader.secp256k1(host), small);
    await settledFill(maker, taker, small);
    const ask = await maker.limit(2, SELL, 90_000, 10);
    await spendAll(small.services.registry.get(2)?.base.evmAddress as Address, getAddress(maker.swapper), small);
    expect((await taker.limit(2, BUY, 90_000, 10)).status).toBe('FILLED');
    expect((await canceledEvent(maker, ask.id, small)).reason).toBe('INSUFFICIENT_FUNDS');
    expect(small.logs()).toContain(
      '"reason":"INSUFFICIENT_FUNDS","reactor":"MakerTransfer","msg":"dropping a fill the reactor would refuse"',
    );
    expect(small.logs()).not.toContain('the reactor refused a fill');
  });

  it('catches up over many settlement blocks through a node that refuses large answers', async () => {
    const maker = await fundedTrader((host) => Trader.ed25519(host), small);
    const taker = await fundedTrader((host) => Trader.secp256k1(host), small);
    await maker.place(Array.from({ length: 16 }, (_, step) => maker.limitRequest(1, SELL, 21_000 + step, 10)));
    expect((await taker.limit(1, BUY, 21_015, 160)).status).toBe('FILLED');
    const tape = await settledTape(small);

    // A client that refuses answers over 16 kB (viem's default limit is 10 MB): the events of all
    // these blocks do not fit one answer, those of any one block do.
    const { chain, settler, stopFollowing } = settlement(small);
    const limited = createPublicClient({
      chain: chain.public.chain,
      transport: http(chain.public.chain.rpcUrls.default.http[0], { maxResponseBodySize: 16_384, retryCount: 0 }),
    });
    const head = await chain.public.getBlockNumber();
    await expect(limited.getLogs({ address: chain.reactor, fromBlock: 1n, toBlock: head })).rejects.toThrow();

    // The store forgets every settlement, as if the service had been down while they happened.
    // The service's own polls stop first: one under way could move the cursor past the rewind.
    const { store, desk, clock, logger } = small.services;
    await stopFollowing();
    await settler.stop();
    const forgotten = await store.settlements.requeueSettledAfter(0n, clock.now());
    expect(forgotten).toBeGreaterThanOrEqual(tape.length);
    const indexer = new ReactorIndexer({ ...chain, public: limited }, store, desk, clock, logger);
    await indexer.rewindTo(0n);
    await indexer.catchUp();

    expect(await store.settlements.pending(1_000)).toEqual([]);
    expect(await store.settlements.cursor(`reactor:${chain.chainId}:${chain.reactor.toLowerCase()}`)).toBe(head);
    await settler.start();
    expect(await settledTape(small)).toEqual(tape);
  });
});

describe('a chain that lost the operator cancellations', () => {
  it('sends a confirmed cancellation and a raised floor again after a restart on a chain without them; the orders stay CANCELED', async () => {
    const maker = await fundedTrader((host) => Trader.secp256k1(host));
    const [single, below] = await maker.place([maker.limitRequest(1, SELL, 29_000, 10), maker.limitRequest(1, SELL, 29_100, 10)]);
    if (single === undefined || below === undefined) throw new Error('orders were not placed');
    const onChain = async () => {
      const { chain } = settlement();
      const read = <T>(functionName: 'cancelled' | 'nonceFloor', args: readonly unknown[]) =>
        chain.public.readContract({
          address: chain.reactor,
          abi: PartialFillLimitOrderReactor.abi,
          functionName,
          args,
        } as never) as Promise<T>;
      const swapper = getAddress(maker.swapper);
      return {
        cancelled: await read<boolean>('cancelled', [swapper, (await storedOrder(single.id)).orderHash]),
        floor: await read<bigint>('nonceFloor', [swapper]),
      };
    };
    const devnet = settlement().chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    const snapshot = await devnet.test.snapshot();

    expect((await maker.request('POST', '/cancel', { orderIds: [single.id] })).status).toBe(202);
    await canceledEvent(maker, single.id);
    const floor = (await storedOrder(below.id)).nonce + 1n;
    expect((await maker.request('POST', '/cancel/all', { nonceFloor: floor.toString() })).status).toBe(202);
    await canceledEvent(maker, below.id);
    await eventually(async () => ((await onChain()).floor === floor ? true : undefined), 'the floor on the reactor');

    // The node loses every block since the snapshot, as one restored from an older state file.
    await devnet.test.revert({ id: snapshot });
    expect(await onChain()).toEqual({ cancelled: false, floor: 0n });
    await h.restart();
    const after = await eventually(async () => {
      const state = await onChain();
      return state.cancelled && state.floor === floor ? state : undefined;
    }, 'the cancellation and the floor on the reactor again');
    expect(after).toEqual({ cancelled: true, floor });
    expect(h.logs()).toContain('the chain lost settled fills, cancellations or nonce floors; sending them again');
    expect((await storedOrder(single.id)).status).toBe('CANCELED');
    expect((await storedOrder(below.id)).status).toBe('CANCELED');
  });
});
