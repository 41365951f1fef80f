import { BUY, SELL } from '@dex/core';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { generatePrivateKey } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DevnetAccountKeys } from '../../../adapters/accounts/devnet-account-keys.js';
import { DEADLINE_CLOCK_STEP_SECONDS } from '../../../domain/orders/order-checks.js';
import { type BuiltOrder, type Harness, startHarness, Trader, wireOf } from '../../../test-support/harness.js';

let harness: Harness;
let trader: Trader;

beforeEach(async () => {
  harness = await startHarness();
  trader = await Trader.secp256k1(harness);
});
afterEach(async () => {
  await harness.close();
});

interface ErrorReply {
  error: string;
  code: string;
  index?: number;
}

/** A resting ask of 1 WHBAR at 0.25 on book 1. */
function ask(extra = {}) {
  return trader.limitRequest(1, SELL, 25_000, 10, extra);
}

async function saveItems(items: unknown[], who: Trader = trader) {
  return who.request<ErrorReply & { orders: { meta: { id: string; status: string; orderbookId: string; orderHash: string } }[] }>(
    'POST',
    '/orders/save',
    { items },
  );
}

/** The order with a change applied, signed again by the trader (a valid signature of the changed order). */
async function resigned(order: BuiltOrder, change: (order: BuiltOrder) => void) {
  const copy = structuredClone(order);
  change(copy);
  return { order: wireOf(copy), signature: await trader.signOrder(copy), orderbookId: 1, type: 'LIMIT' };
}

async function openOrders(who: Trader = trader): Promise<number> {
  return (await who.request<{ total: number }>('GET', '/orders?status=OPEN,PARTIALLY_FILLED')).body.total;
}

describe('POST /orders/save', () => {
  it('stores a viem-signed order and rests it on the book', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const reply = await trader.save([built]);
    expect(reply.status).toBe(200);
    const [saved] = reply.body.orders;
    expect(saved?.meta).toMatchObject({ status: 'ACTIVE', reason: null, orderHash: built.meta.orderHash, filledAmount: '0' });
    expect(wireOf(saved as unknown as BuiltOrder)).toEqual(wireOf(built));
    const depth = await trader.request<{ asks: string[][] }>('GET', '/depth/1');
    expect(depth.body.asks).toEqual([['0.25', '1']]);
    expect(await harness.services.store.orders.get(Number(saved?.meta.id))).toMatchObject({
      status: 'OPEN',
      account: trader.account,
    });
  });

  it("answers each saved order with the live API's meta: string ids, the status word, ISO times", async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const reply = await trader.save([built]);
    const [saved] = reply.body.orders;
    const now = new Date(harness.clock.now()).toISOString();
    expect(saved?.meta).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      orderbookId: '1',
      type: 'LIMIT',
      status: 'ACTIVE',
      reason: null,
      orderHash: built.meta.orderHash,
      signature: expect.stringMatching(/^0x00[0-9a-f]{130}$/),
      isAMMEnabled: false,
      selfTradePrevention: 'EXPIRE_MAKER',
      filledAmount: '0',
      hcsInitialTransactionId: null,
      createdAt: now,
      updatedAt: now,
    });
  });

  it('takes the built order back untouched, its meta ignored and never trusted', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    // A client that edits the unsigned meta changes nothing the server relies on.
    const forged = { ...built, meta: { ...built.meta, orderbookId: '2', orderHash: `0x${'00'.repeat(32)}`, side: 'buy' } };
    const [item] = await trader.items([built]);
    const reply = await saveItems([{ ...item, order: forged }]);
    expect(reply.status).toBe(200);
    expect(reply.body.orders[0]?.meta).toMatchObject({
      orderbookId: '1',
      orderHash: built.meta.orderHash,
    });
  });

  it('stores an order signed with an Ed25519 ledger key', async () => {
    const ledger = await Trader.ed25519(harness);
    const meta = await ledger.limit(1, BUY, 24_000, 10);
    expect(meta.status).toBe('ACTIVE');
    expect((await ledger.request<{ orders: { id: number }[] }>('GET', '/orders')).body.orders.map((order) => order.id)).toEqual([
      meta.id,
    ]);
  });

  it('answers the same order for the same signed order saved twice, in one batch or two', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const [item] = await trader.items([built]);
    const first = await saveItems([item, item]);
    const second = await saveItems([item]);
    expect(first.status).toBe(200);
    const ids = [...first.body.orders, ...second.body.orders].map((order) => order.meta.id);
    expect(new Set(ids).size).toBe(1);
    expect(await openOrders()).toBe(1);
  });

  it('answers 400 INVALID_SIGNATURE for an order changed after signing', async () => {
    const items = await trader.items(await trader.build([ask(), ask()]));
    const tampered = structuredClone(items[1]) as { order: { output: { amount: string } } };
    tampered.order.output.amount = '260000';
    const reply = await saveItems([items[0], tampered]);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'INVALID_SIGNATURE', index: 1 });
    expect(await openOrders()).toBe(0);
  });

  it("answers 400 INVALID_SIGNATURE for another wallet's signature", async () => {
    const [built] = await trader.build([ask()]);
    const other = await Trader.secp256k1(harness);
    if (built === undefined) throw new Error('nothing built');
    const reply = await saveItems([
      { order: wireOf(built), signature: await other.signOrder(built), orderbookId: 1, type: 'LIMIT' },
    ]);
    expect(reply.body).toMatchObject({ code: 'INVALID_SIGNATURE', index: 0 });
  });

  it('answers 400 INVALID_SIGNATURE for an Ed25519 signature of another digest', async () => {
    const ledger = await Trader.ed25519(harness);
    const [first, second] = await ledger.build([ask(), ask()]);
    if (first === undefined || second === undefined) throw new Error('nothing built');
    const signature = await ledger.signOrder(second);
    const reply = await saveItems([{ order: wireOf(first), signature, orderbookId: 1, type: 'LIMIT' }], ledger);
    expect(reply.body).toMatchObject({ code: 'INVALID_SIGNATURE' });
  });

  it.each([
    ['mode byte 0x01', (signature: string) => `0x01${signature.slice(4)}`],
    ['no mode byte', (signature: string) => `0x${signature.slice(4)}`],
    ['a 64-byte signature for a secp256k1 account', (signature: string) => signature.slice(0, -2)],
    ['a high-s signature', (signature: string) => highS(signature)],
  ])('answers 400 INVALID_SIGNATURE for %s', async (_name, change) => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const signature = change(await trader.signOrder(built));
    const reply = await saveItems([{ order: wireOf(built), signature, orderbookId: 1, type: 'LIMIT' }]);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_SIGNATURE');
  });

  it('answers 400 NONCE_NOT_ISSUED for a nonce the server never issued', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const item = await resigned(built, (order) => {
      order.info.nonce = (BigInt(order.info.nonce) + 1_000n).toString();
    });
    expect((await saveItems([item])).body).toMatchObject({ code: 'NONCE_NOT_ISSUED', index: 0 });
  });

  it('answers 400 NONCE_NOT_ISSUED for a second order on a used nonce', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    expect((await trader.save([built])).status).toBe(200);
    const item = await resigned(built, (order) => {
      order.output.amount = '260000';
    });
    expect((await saveItems([item])).body).toMatchObject({ code: 'NONCE_NOT_ISSUED' });
  });

  it('answers 400 NONCE_NOT_ISSUED for a nonce issued to another account', async () => {
    const other = await Trader.secp256k1(harness);
    const [, theirs] = await other.build([ask(), ask()]);
    const [mine] = await trader.build([ask()]);
    if (theirs === undefined || mine === undefined) throw new Error('nothing built');
    const item = await resigned(mine, (order) => {
      order.info.nonce = theirs.info.nonce;
    });
    expect((await saveItems([item])).body).toMatchObject({ code: 'NONCE_NOT_ISSUED' });
  });

  it('rejects a save whose deadline is under 30 s, saying how far off it is', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const deadline = Number(built.info.deadline);
    harness.clock.time = (deadline - 29) * 1000;
    await trader.login();
    expect((await trader.save([built])).body).toEqual({
      code: 'ORDER_DEADLINE_TOO_SOON',
      index: 0,
      error: `items[0]: The order deadline ${deadline} is 29 s from now (${deadline - 29}); it must be at least 30 seconds from now`,
    });
  });

  it('says that the deadline has passed, and when, for a save after its deadline, under the same code', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const deadline = Number(built.info.deadline);
    harness.clock.time = (deadline + 60) * 1000;
    await trader.login();
    expect((await trader.save([built])).body).toEqual({
      code: 'ORDER_DEADLINE_TOO_SOON',
      index: 0,
      error: `items[0]: The order deadline has passed: ${deadline} is 60 s before now (${deadline + 60}); build the order again`,
    });
  });

  it('rejects a save whose deadline is beyond 90 days', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const item = await resigned(built, (order) => {
      order.info.deadline = String(Math.floor(harness.clock.now() / 1000) + 91 * 24 * 3600);
    });
    expect((await saveItems([item])).body).toMatchObject({ code: 'ORDER_DEADLINE_TOO_FAR' });
  });

  it(`saves an order built with the longest deadline after the clock stepped back up to ${DEADLINE_CLOCK_STEP_SECONDS} s, not further`, async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    harness.clock.rewind((DEADLINE_CLOCK_STEP_SECONDS + 1) * 1000);
    await trader.login();
    expect((await trader.save([built])).body).toMatchObject({ code: 'ORDER_DEADLINE_TOO_FAR' });
    harness.clock.advance(2_000);
    expect((await trader.save([built])).status).toBe(200);
  });

  it('answers 403 SWAPPER_MISMATCH for an order naming another swapper', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const item = await resigned(built, (order) => {
      order.info.swapper = '0x000000000000000000000000000000000000beef';
    });
    const reply = await saveItems([item]);
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ code: 'SWAPPER_MISMATCH', index: 0 });
  });

  it('answers 400 WRONG_REACTOR for an order addressed to another reactor', async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const item = await resigned(built, (order) => {
      order.info.reactor = '0x000000000000000000000000000000000000beef';
    });
    expect((await saveItems([item])).body).toMatchObject({ code: 'WRONG_REACTOR' });
  });

  it("answers 400 FEE_CAP_TOO_LOW when the account's fees rose after the build", async () => {
    const [built] = await trader.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    await harness.services.store.feeOverrides.set({
      account: trader.account,
      bookId: 1,
      takerFeePips: 2_000,
      makerFeePips: 0,
      capFractionPips: 0,
      updatedAt: harness.clock.now(),
    });
    expect((await trader.save([built])).body).toMatchObject({ code: 'FEE_CAP_TOO_LOW' });
  });

  it.each([
    ['an extra field', (order: Record<string, unknown>) => Object.assign(order, { price: '1' })],
    ['a missing field', (order: Record<string, unknown>) => delete order.takerOnce],
    ['a nonce in hex', (order: Record<string, unknown>) => Object.assign(order.info as object, { nonce: '0x10' })],
    [
      'additional validation data',
      (order: Record<string, unknown>) => Object.assign(order.info as object, { additionalValidationData: '0x01' }),
    ],
  ])('answers 400 INVALID_ORDER for %s', async (_name, change) => {
    const [item] = await trader.items(await trader.build([ask()]));
    const broken = structuredClone(item) as unknown as { order: Record<string, unknown> };
    change(broken.order);
    const reply = await saveItems([broken]);
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('INVALID_ORDER');
  });

  it('refuses the whole batch when one item is bad, and its good orders can be saved after', async () => {
    const built = await trader.build([ask(), ask(), ask()]);
    const items = await trader.items(built);
    const bad = { ...items[2], orderbookId: 2 };
    expect((await saveItems([items[0], items[1], bad])).body).toMatchObject({ code: 'TOKEN_NOT_IN_BOOK', index: 2 });
    expect(await openOrders()).toBe(0);
    expect((await trader.request<{ asks: unknown[] }>('GET', '/depth/1')).body.asks).toEqual([]);
    expect((await saveItems(items)).status).toBe(200);
    expect(await openOrders()).toBe(3);
  });

  it('answers 400 for an empty batch and for 251 items', async () => {
    expect((await saveItems([])).status).toBe(400);
    const [item] = await trader.items(await trader.build([ask()]));
    expect((await saveItems(Array.from({ length: 251 }, () => item))).status).toBe(400);
  });

  it('takes a secp256k1 key as one account under both its names: the second save answers the stored order', async () => {
    const privateKey = generatePrivateKey();
    const wallet = await Trader.secp256k1(harness, privateKey);
    const compressed = secp256k1.getPublicKey(Buffer.from(privateKey.slice(2), 'hex'), true);
    const ledger = await new DevnetAccountKeys(harness.services.store.accountKeys).registerNew(
      'ECDSA_SECP256K1',
      compressed,
      harness.clock.now(),
    );
    const [built] = await wallet.build([ask()]);
    if (built === undefined) throw new Error('nothing built');
    const [item] = await wallet.items([built]);
    const first = await saveItems([item], wallet);
    expect(first.status).toBe(200);
    // A token issued to the ledger id acts as the key's address, the name the account trades under.
    const token = await harness.services.tokens.issue(ledger.accountId);
    const reply = await harness.app.inject({
      method: 'POST',
      url: '/orders/save',
      headers: { authorization: `Bearer ${token}` },
      payload: { items: [item] },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json().orders[0].meta.id).toBe(first.body.orders[0]?.meta.id);
  });

  it('answers 401 without a token and with a token of a wallet that signs nothing', async () => {
    const anonymous = await harness.app.inject({ method: 'POST', url: '/orders/save', payload: { items: [] } });
    expect(anonymous.statusCode).toBe(401);
    const forged = await harness.app.inject({
      method: 'POST',
      url: '/orders/save',
      headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIweDEifQ.' },
      payload: { items: [] },
    });
    expect(forged.statusCode).toBe(401);
  });
});

describe('POST /orders/save with verification on worker threads', () => {
  it('verifies through the pool and stores the orders', async () => {
    const pooled = await startHarness({ VERIFY_WORKERS: '1' });
    try {
      const wallet = await Trader.secp256k1(pooled);
      const ledger = await Trader.ed25519(pooled);
      expect((await wallet.limit(1, SELL, 25_000, 10)).status).toBe('ACTIVE');
      expect((await ledger.limit(1, BUY, 25_000, 4)).status).toBe('FILLED');
    } finally {
      await pooled.close();
    }
  });
});

/** The same secp256k1 signature with s replaced by n - s (and v flipped): valid maths, refused by policy. */
function highS(signature: string): string {
  const body = signature.slice(4);
  const s = BigInt(`0x${body.slice(64, 128)}`);
  const flipped = (secp256k1.Point.CURVE().n - s).toString(16).padStart(64, '0');
  const v = body.slice(128) === '1b' ? '1c' : '1b';
  return `0x00${body.slice(0, 64)}${flipped}${v}`;
}
