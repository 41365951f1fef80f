import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { BUY, SELL } from '@dex/core';
import { createPublicClient, decodeFunctionData, getAddress, type Hex, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader, until } from '../../../test-support/harness.js';
import { canForgetExpired } from './expired-order-sweeper.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()), listen: true });
});

afterAll(async () => {
  await h?.close();
});

function settlement() {
  const value = h.services.settlement;
  if (value === null) throw new Error('settlement is off');
  return value;
}

async function orderHash(id: number): Promise<Hex> {
  const order = await h.services.store.orders.get(id);
  if (order === undefined) throw new Error(`no order ${id}`);
  return order.orderHash as Hex;
}

const read = async <T>(functionName: 'filled' | 'cancelled', args: readonly unknown[]): Promise<T> => {
  const { chain } = settlement();
  return (await chain.public.readContract({
    address: chain.reactor,
    abi: PartialFillLimitOrderReactor.abi,
    functionName,
    args,
  } as never)) as T;
};

/** The orders of the newest forgetExpired call on the chain, as swapper and nonce. */
async function lastForgotten(): Promise<string[]> {
  const { chain } = settlement();
  const head = await chain.public.getBlockNumber({ cacheTime: 0 });
  for (let number = head; number > 0n; number--) {
    const block = await chain.public.getBlock({ blockNumber: number, includeTransactions: true });
    for (const transaction of block.transactions) {
      if (transaction.to?.toLowerCase() !== chain.reactor.toLowerCase()) continue;
      const call = decodeFunctionData({ abi: PartialFillLimitOrderReactor.abi, data: transaction.input });
      if (call.functionName !== 'forgetExpired') continue;
      return call.args[0].map((order) => `${order.info.swapper}/${order.info.nonce}`);
    }
  }
  throw new Error('no forgetExpired transaction');
}

async function noneWaiting(what: string): Promise<void> {
  const { store } = h.services;
  await until(async () => {
    const busy = (await store.settlements.pending(1)).length + (await store.settlements.submitted()).length;
    return busy === 0 ? true : undefined;
  }, what);
}

describe('forgetting expired orders on the devnet chain', () => {
  it('frees what the reactor recorded of orders once they expire, sending only orders it holds something of', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const soon = { deadline: String(Math.floor(h.clock.now() / 1000) + 120) };
    const ask = await maker.limit(1, SELL, 25_000, 10, soon);
    const bid = await taker.limit(1, BUY, 25_000, 4, soon);
    expect(bid.status).toBe('FILLED');
    await noneWaiting('the fill to settle');
    const cancelled = await maker.limit(1, SELL, 26_000, 10, soon);
    expect((await maker.request('POST', '/cancel', { orderIds: [cancelled.id] })).status).toBe(202);
    await until(
      async () => ((await h.services.store.orders.get(cancelled.id))?.status === 'CANCELED' ? true : undefined),
      'the cancel',
    );
    const untouched = await maker.limit(1, SELL, 27_000, 10, soon);
    const makerAddress = getAddress(maker.swapper);
    expect(await read<bigint>('filled', [await orderHash(ask.id)])).toBeGreaterThan(0n);
    expect(await read<bigint>('filled', [await orderHash(bid.id)])).toBeGreaterThan(0n);
    expect(await read<boolean>('cancelled', [makerAddress, await orderHash(cancelled.id)])).toBe(true);

    // Both clocks pass the deadlines: the chain's and the service's.
    const devnet = settlement().chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    await devnet.test.increaseTime({ seconds: 600 });
    await devnet.test.mine({ blocks: 1 });
    h.clock.advance(600_000);
    const before = Math.floor(h.clock.now() / 1000);
    await until(
      async () => ((await h.services.store.expiredOrders.unforgotten(before, 10)).length === 0 ? true : undefined),
      'the sweep',
    );

    expect(await read<bigint>('filled', [await orderHash(ask.id)])).toBe(0n);
    expect(await read<bigint>('filled', [await orderHash(bid.id)])).toBe(0n);
    expect(await read<boolean>('cancelled', [makerAddress, await orderHash(cancelled.id)])).toBe(false);
    const sent = await lastForgotten();
    const nonceOf = async (id: number) => (await h.services.store.orders.get(id))?.nonce;
    expect(sent).toContain(`${makerAddress}/${await nonceOf(ask.id)}`);
    expect(sent).toContain(`${makerAddress}/${await nonceOf(cancelled.id)}`);
    expect(sent).toContain(`${getAddress(taker.swapper)}/${await nonceOf(bid.id)}`);
    expect(sent).not.toContain(`${makerAddress}/${await nonceOf(untouched.id)}`);
    expect(sent).toHaveLength(3);
  });

  it('asks the reactor whether it can forget: yes for this build, no for a contract without the call, an error when the node does not answer', async () => {
    const { chain } = settlement();
    expect(await canForgetExpired(chain)).toBe(true);
    const token = h.services.registry.get(1)?.base.evmAddress;
    if (token === undefined) throw new Error('no book 1');
    expect(await canForgetExpired({ ...chain, reactor: getAddress(token) })).toBe(false);
    const nowhere = createPublicClient({ chain: chain.public.chain, transport: http('http://127.0.0.1:9', { retryCount: 0 }) });
    await expect(canForgetExpired({ ...chain, public: nowhere })).rejects.toThrow();
  });
});
