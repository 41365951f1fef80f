import { SELL } from '@dex/core';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader, until } from '../../../test-support/harness.js';

/**
 * A ledger account with a secp256k1 key and the key's EVM alias address are one key and one
 * swapper: whichever name logs in, it is one account, so its funds, nonce floor, order cap and
 * streams are checked once. On the devnet chain, with 1,000 WHBAR.
 */

let h: Harness;
let ledger: Trader;
let alias: Trader;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()) });
  const key = generatePrivateKey();
  ledger = await fund(h, await Trader.ledgerSecp256k1(h, key));
  alias = await Trader.secp256k1(h, key);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe("a ledger account's EVM alias", () => {
  it('logs in as the ledger account, so one balance backs the orders of both names', async () => {
    expect(alias.swapper).toBe(ledger.swapper);
    // 900 of its 1,000 WHBAR, once as 0.0.X and once as the alias: the second is not covered.
    const first = await ledger.save(await ledger.build([ledger.limitRequest(1, SELL, 30_000, 9_000)]));
    expect(first.status).toBe(200);
    const second = await alias.save(await alias.build([alias.limitRequest(1, SELL, 30_000, 9_000)]));
    expect(second).toMatchObject({ status: 400, body: { code: 'INSUFFICIENT_FUNDS' } });
  });

  it("sees the ledger account's orders, and its cancel/all cancels them", async () => {
    const listed = await alias.request<{ orders: { id: number; status: string }[] }>('GET', '/orders?status=ACTIVE');
    const mine = await ledger.request<{ orders: { id: number }[] }>('GET', '/orders?status=ACTIVE');
    expect(listed.body.orders.map((order) => order.id)).toEqual(mine.body.orders.map((order) => order.id));
    expect(listed.body.orders.length).toBeGreaterThan(0);
    const floor = BigInt(Date.now()) * 10_000n;
    const cancelled = await alias.request<{ accepted: number[] }>('POST', '/cancel/all', { nonceFloor: floor.toString() });
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.accepted.sort()).toEqual(mine.body.orders.map((order) => order.id).sort());
    // Final once the reactor has the floor, for the one account either name is.
    await until(async () => {
      const canceled = await ledger.request<{ orders: { id: number }[] }>('GET', '/orders?status=CANCELED');
      return canceled.body.orders.length === mine.body.orders.length ? true : undefined;
    }, 'the cancellations on the reactor');
  });
});
