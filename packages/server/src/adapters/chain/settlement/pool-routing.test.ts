import { AmmPair, PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, tokenBalance } from '../../../test-support/funded-trader.js';
import { type Harness, RealTimeClock, startHarness, Trader } from '../../../test-support/harness.js';
import { operator } from '../../../test-support/operator-cli.js';
import { until } from '../../../test-support/until.js';

let h: Harness;
/** Book 1's pair: WHBAR (8 decimals) against USDC (6 decimals), 4,000 WHBAR and 1,000 USDC: 0.25 USDC a WHBAR. */
let pair: Address;

function settlement() {
  const value = h.services.settlement;
  if (value === null) throw new Error('settlement is off');
  return value;
}

const run = (...argv: string[]) => operator(h.services.store, h.clock, h.config.dataDir)(...argv);

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock(), listen: true });
  const added = await run('pool', 'add-liquidity', 'WHBAR', 'USDC', '4000', '1000', '--json');
  expect(added.code).toBe(0);
  const [pool] = JSON.parse((await run('pool', 'list', '--json')).out) as { pair: Address }[];
  if (pool === undefined) throw new Error('no pool');
  pair = pool.pair;
});

afterAll(async () => {
  await h?.close();
});

/** The pool's reserves as book 1 orders them: WHBAR, then USDC. */
async function chainReserves(): Promise<{ base: bigint; quote: bigint }> {
  const { public: client } = settlement().chain;
  const [reserve0, reserve1] = await client.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' });
  const market = h.services.registry.get(1);
  const baseFirst =
    market?.base.evmAddress.toLowerCase() ===
    (await client.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token0' })).toLowerCase();
  return baseFirst ? { base: reserve0, quote: reserve1 } : { base: reserve1, quote: reserve0 };
}

/** Until book 1's engine holds the pool as the chain has it (after the AMM indexer read its last Sync). */
async function engineSeesChain(): Promise<void> {
  const expected = await chainReserves();
  await until(
    async () => {
      await settlement().amm?.catchUp();
      const pool = h.services.engines.engine(1)?.pool;
      return pool?.base === expected.base && pool.quote === expected.quote ? true : undefined;
    },
    "book 1's engine to hold the pool's reserves",
    20_000,
  );
}

/** Until no trade waits for settlement. */
async function allSettled(): Promise<void> {
  const { store } = h.services;
  await until(
    async () => {
      settlement().settler.wake();
      const idle = (await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0;
      return idle ? true : undefined;
    },
    'every trade to settle',
    30_000,
  );
}

const balanceOf = (token: string, owner: string): Promise<bigint> => tokenBalance(h, token, owner);

/** The taker fees the reactor charged on these fills, from its `Filled` and `PoolFilled` events. */
async function takerFees(tradeIds: readonly number[]): Promise<bigint> {
  const { chain } = settlement();
  const search = { address: chain.reactor, abi: PartialFillLimitOrderReactor.abi, fromBlock: 0n } as const;
  const [fills, swaps] = await Promise.all([
    chain.public.getContractEvents({ ...search, eventName: 'Filled' }),
    chain.public.getContractEvents({ ...search, eventName: 'PoolFilled' }),
  ]);
  const ids = new Set(tradeIds.map(BigInt));
  return [...fills, ...swaps]
    .filter((event) => ids.has(event.args.fillId as bigint))
    .reduce((sum, event) => sum + (event.args.takerFee as bigint), 0n);
}

interface TradeRow {
  id: number;
  makerOrderId: number | null;
  baseAmount: bigint;
  quoteAmount: bigint;
}

/** The trades an order took, oldest first. */
async function tradesOf(orderId: number): Promise<TradeRow[]> {
  const { trades } = await h.services.store.trades.page(1, 'asc', 0, 1_000);
  return trades
    .filter((trade) => trade.takerOrderId === orderId)
    .map(({ id, makerOrderId, baseAmount, quoteAmount }) => ({ id, makerOrderId, baseAmount, quoteAmount }));
}

describe('routing opted-in takers into the pool of book 1 on the devnet chain', () => {
  it('fills a market buy from the pool and the book exactly as its quote said, and settles it to the unit', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const { base, quote } = market;
    // 10 WHBAR at 0.252: the pool (0.25 before its fee, about 0.2508 after) is cheaper up to there.
    await maker.limit(1, SELL, 25_200, 100);
    await engineSeesChain();
    const poolBefore = await chainReserves();

    const spend = 5_000_000n; // 5 USDC
    const url = `/books/1/quote/exact-input?inputToken=${quote.evmAddress}&inputAmount=${spend}`;
    const quoted = (
      await taker.request<{
        snappedInputAmount: string;
        consumedInputAmount: string;
        expectedOutputAmount: string;
        suggestedOutputAmount: string;
        fillable: boolean;
      }>('GET', `${url}&isAMMEnabled=true`)
    ).body;
    // Without the opt-in a quote is what an order without it gets: the book alone.
    const bookAlone = (await taker.request<{ expectedOutputAmount: string }>('GET', url)).body;
    expect(quoted.fillable).toBe(true);
    expect(BigInt(quoted.expectedOutputAmount)).toBeGreaterThan(BigInt(bookAlone.expectedOutputAmount));

    const [built] = await taker.build([
      {
        orderbookId: 1,
        type: 'MARKET',
        inputToken: quote.evmAddress,
        inputAmount: quoted.snappedInputAmount,
        outputToken: base.evmAddress,
        outputAmount: quoted.suggestedOutputAmount,
        isAMMEnabled: true,
      },
    ]);
    if (built === undefined) throw new Error('nothing built');
    expect(built.meta.isAMMEnabled).toBe(true);
    const before = {
      base: await balanceOf(base.evmAddress, taker.swapper),
      quote: await balanceOf(quote.evmAddress, taker.swapper),
    };
    const saved = await taker.save([built]);
    expect(saved.status).toBe(200);
    const meta = saved.body.orders[0]?.meta;
    expect(meta?.isAMMEnabled).toBe(true);

    const trades = await tradesOf(Number(meta?.id));
    const swaps = trades.filter((trade) => trade.makerOrderId === null);
    expect(swaps.length).toBeGreaterThan(0);
    expect(trades.length).toBeGreaterThan(swaps.length);
    const bought = trades.reduce((sum, trade) => sum + trade.baseAmount, 0n);
    const paid = trades.reduce((sum, trade) => sum + trade.quoteAmount, 0n);
    expect(bought).toBe(BigInt(quoted.expectedOutputAmount));
    expect(paid).toBe(BigInt(quoted.consumedInputAmount));

    await allSettled();
    const fees = await takerFees(trades.map((trade) => trade.id));
    expect((await balanceOf(base.evmAddress, taker.swapper)) - before.base).toBe(bought - fees);
    expect(before.quote - (await balanceOf(quote.evmAddress, taker.swapper))).toBe(paid);
    const swapBase = swaps.reduce((sum, trade) => sum + trade.baseAmount, 0n);
    const swapQuote = swaps.reduce((sum, trade) => sum + trade.quoteAmount, 0n);
    expect(await chainReserves()).toEqual({ base: poolBefore.base - swapBase, quote: poolBefore.quote + swapQuote });
    // The tape shows the pool's trades beside the book's, each with its settlement transaction.
    const tape = (await taker.request<{ trades: { transactionHash: string }[] }>('GET', '/trades/1?limit=100')).body.trades;
    expect(tape.length).toBeGreaterThanOrEqual(trades.length);
    // The book's 24-hour figures count what its tape shows, the pool's trades included.
    const stored = (await h.services.store.trades.page(1, 'asc', 0, 100)).trades;
    type Books = { orderbooks: { id: number; baseVol24h: string; quoteVol24h: string }[] };
    const books = (await taker.request<Books>('GET', '/books')).body.orderbooks;
    expect(books.find((book) => book.id === 1)).toMatchObject({
      baseVol24h: market.grid.formatBase(stored.reduce((sum, trade) => sum + trade.baseAmount, 0n)),
      quoteVol24h: market.grid.formatQuote(stored.reduce((sum, trade) => sum + trade.quoteAmount, 0n)),
    });
  });

  it('reverts only the swap a moved pool refuses: the batch settles the book fill, and the order trades again on the pool as it is', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    // 5 WHBAR at 0.24, cheaper than the pool: the taker meets them first, then the pool up to 0.26.
    await maker.limit(1, SELL, 24_000, 50);
    await engineSeesChain();
    const actual = await chainReserves();
    const head = await settlement().chain.public.getBlockNumber();
    // The engine believes the pool 1 % cheaper than it is, as after a swap whose Sync it has not read yet:
    // more than the taker's fee (0.1 %) can absorb, so the reactor refuses the swap.
    h.services.engines.pools.synced(1, { base: (actual.base * 1_010n) / 1_000n, quote: actual.quote }, head);
    h.services.engines.refreshPool(1);
    const before = await balanceOf(market.base.evmAddress, taker.swapper);

    const order = await taker.limit(1, BUY, 26_000, 100, { isAMMEnabled: true });
    await allSettled();
    const history = await h.services.store.orders.history(order.id);
    const reverted = history.filter((event) => event.type === 'FILL_REVERTED');
    const trades = await tradesOf(order.id);
    const swaps = trades.filter((trade) => trade.makerOrderId === null);
    const swapIds = new Set(swaps.map((trade) => trade.id));
    // Only swaps were refused, each once, and each taken again: a trade refused is off the tape.
    expect(reverted.length).toBeGreaterThan(0);
    for (const event of reverted) {
      expect(event.reason).toBe('SETTLEMENT_FAILED');
      expect(swapIds.has(event.fill?.tradeId ?? -1)).toBe(false);
    }
    expect(trades.some((trade) => trade.makerOrderId !== null && trade.baseAmount === 500_000_000n)).toBe(true);
    expect(await h.services.store.orders.get(order.id)).toMatchObject({ status: 'FILLED', filledSteps: 100 });

    const fees = await takerFees(trades.map((trade) => trade.id));
    expect((await balanceOf(market.base.evmAddress, taker.swapper)) - before).toBe(1_000_000_000n - fees);
    const swapBase = swaps.reduce((sum, trade) => sum + trade.baseAmount, 0n);
    const swapQuote = swaps.reduce((sum, trade) => sum + trade.quoteAmount, 0n);
    expect(await chainReserves()).toEqual({ base: actual.base - swapBase, quote: actual.quote + swapQuote });
    // The engine holds the pool as the chain does again.
    await engineSeesChain();
  });

  it('trades the book alone for an order that did not opt in', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.secp256k1(h));
    await maker.limit(1, SELL, 26_000, 10);
    await engineSeesChain();
    const [order] = await taker.place([taker.limitRequest(1, BUY, 26_000, 10)]);
    const trades = await tradesOf(Number(order?.id));
    expect(trades.every((trade) => trade.makerOrderId !== null)).toBe(true);
  });
});
