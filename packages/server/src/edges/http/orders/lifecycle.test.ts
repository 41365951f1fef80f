import { BUY, MAX_UINT256, SELL } from '@dex/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_OPEN_ORDERS_PER_ACCOUNT } from '../../../application/desk/trading-desk.js';
import { type Harness, startHarness, Trader } from '../../../test-support/harness.js';
import { describeEachEngine } from '../../../test-support/store-engines.js';

describeEachEngine('the order lifecycle', (stores) => {
  let harness: Harness;
  let maker: Trader;

  beforeEach(async () => {
    harness = await startHarness(stores.env());
    maker = await Trader.secp256k1(harness);
  });
  afterEach(async () => {
    await harness.close();
  });

  interface CancelReply {
    status: string;
    message: string;
    accepted: number[];
    skipped: number[];
    skippedDetails: { orderId: number; reason: string }[];
  }

  async function statusOf(who: Trader, id: number): Promise<{ status: string; reason: string | null }> {
    const reply = await who.request<{ orders: { id: number; status: string; reason: string | null }[] }>(
      'GET',
      '/orders?limit=500',
    );
    const order = reply.body.orders.find((candidate) => candidate.id === id);
    if (order === undefined) throw new Error(`order ${id} not listed`);
    return { status: order.status, reason: order.reason };
  }

  async function historyTypes(who: Trader, id: number): Promise<string[]> {
    const reply = await who.request<{ events: { type: string; reason: string | null }[] }>('GET', `/orders/${id}/history`);
    return reply.body.events.map((event) => (event.reason === null ? event.type : `${event.type}:${event.reason}`));
  }

  describe('POST /cancel', () => {
    it('takes the orders off the book at once and answers 202 PENDING with what it did', async () => {
      const [first, second] = await maker.place([
        maker.limitRequest(1, SELL, 25_000, 10),
        maker.limitRequest(1, SELL, 25_100, 10),
      ]);
      const other = await Trader.secp256k1(harness);
      const theirs = await other.limit(1, BUY, 20_000, 10);
      const reply = await maker.request<CancelReply>('POST', '/cancel', {
        orderIds: [first?.id, String(second?.id), theirs.id, 987_654],
      });
      expect(reply.status).toBe(202);
      expect(reply.body).toEqual({
        status: 'PENDING',
        message: expect.stringMatching(/ORDER_CANCELED/),
        accepted: [first?.id, second?.id],
        skipped: [theirs.id, 987_654],
        skippedDetails: [
          { orderId: theirs.id, reason: 'NOT_FOUND' },
          { orderId: 987_654, reason: 'NOT_FOUND' },
        ],
      });
      // No chain settles here: the cancellation is final at once, and the answer says so.
      expect(reply.body.message).toMatch(/final at once since no chain settles here/);
      expect((await maker.request<{ asks: unknown[] }>('GET', '/depth/1')).body.asks).toEqual([]);
      expect(await historyTypes(maker, first?.id ?? 0)).toEqual(['CREATED', 'CANCELED:USER']);
      expect(await statusOf(other, theirs.id)).toEqual({ status: 'ACTIVE', reason: null });
    });

    it('skips an order that is already done as NOT_OPEN', async () => {
      const ask = await maker.limit(1, SELL, 25_000, 10);
      await maker.request('POST', '/cancel', { orderIds: [ask.id] });
      const again = await maker.request<CancelReply>('POST', '/cancel', { orderIds: [ask.id, ask.id] });
      expect(again.body).toMatchObject({
        status: 'PENDING',
        accepted: [],
        skipped: [ask.id],
        skippedDetails: [{ orderId: ask.id, reason: 'NOT_OPEN' }],
      });
      expect(await historyTypes(maker, ask.id)).toEqual(['CREATED', 'CANCELED:USER']);
    });

    it.each([
      ['no ids', { orderIds: [] }],
      ['501 ids', { orderIds: Array.from({ length: 501 }, (_, index) => index + 1) }],
      ['an id that is not a positive integer', { orderIds: [0] }],
      ['an id with letters', { orderIds: ['12a'] }],
      ['another field', { orderIds: [1], all: true }],
    ])('answers 400 for %s', async (_name, body) => {
      const reply = await maker.request('POST', '/cancel', body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('answers 401 without a token', async () => {
      const reply = await harness.app.inject({ method: 'POST', url: '/cancel', payload: { orderIds: [1] } });
      expect(reply.statusCode).toBe(401);
    });
  });

  describe('POST /cancel/all', () => {
    it('cancels the open orders below the nonce floor and refuses saves below it afterwards', async () => {
      const built = await maker.build([
        maker.limitRequest(1, SELL, 25_000, 10),
        maker.limitRequest(1, SELL, 25_100, 10),
        maker.limitRequest(1, SELL, 25_200, 10),
      ]);
      const [low, middle] = built;
      if (low === undefined || middle === undefined) throw new Error('nothing built');
      const saved = await maker.save([low, built[2] as typeof low]);
      const [lowId, highId] = saved.body.orders.map((order) => Number(order.meta.id));
      const floor = BigInt(middle.info.nonce) + 1n;

      const reply = await maker.request<CancelReply>('POST', '/cancel/all', { nonceFloor: floor.toString() });
      expect(reply.status).toBe(202);
      expect(reply.body).toEqual({
        status: 'PENDING',
        message: expect.any(String),
        accepted: [lowId],
        skipped: [],
        skippedDetails: [],
        nonceFloor: floor.toString(),
      });
      expect(await statusOf(maker, lowId ?? 0)).toEqual({ status: 'CANCELED', reason: 'NONCE_FLOOR' });
      expect(await statusOf(maker, highId ?? 0)).toEqual({ status: 'ACTIVE', reason: null });
      expect((await maker.save([middle])).body).toMatchObject({ code: 'NONCE_BELOW_FLOOR' });
    });

    it('builds orders at or above a floor raised past every issued nonce, and they save', async () => {
      // The floor of the real service's documented example: far above any nonce issued so far.
      const floor = 100_000_000_000_000_000_000n;
      await maker.request('POST', '/cancel/all', { nonceFloor: floor.toString() });
      const built = await maker.build([maker.limitRequest(1, SELL, 25_000, 10), maker.limitRequest(1, SELL, 25_100, 10)]);
      expect(built.map((order) => BigInt(order.info.nonce))).toEqual([floor, floor + 1n]);
      expect((await maker.save(built)).status).toBe(200);
    });

    it('refuses to build with NONCES_EXHAUSTED once the floor leaves no uint256 nonce', async () => {
      await maker.request('POST', '/cancel/all', { nonceFloor: MAX_UINT256.toString() });
      const request = maker.limitRequest(1, SELL, 25_000, 10);
      expect((await maker.request('POST', '/orders/build', { orderRequests: [request] })).status).toBe(200);
      const reply = await maker.request('POST', '/orders/build', { orderRequests: [request, request] });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'NONCES_EXHAUSTED' });
    });

    it('never lowers the floor', async () => {
      const [built] = await maker.build([maker.limitRequest(1, SELL, 25_000, 10)]);
      if (built === undefined) throw new Error('nothing built');
      await maker.request('POST', '/cancel/all', { nonceFloor: (BigInt(built.info.nonce) + 1n).toString() });
      await maker.request('POST', '/cancel/all', { nonceFloor: '1' });
      expect((await maker.save([built])).body).toMatchObject({ code: 'NONCE_BELOW_FLOOR' });
    });

    it.each([['-1'], ['1e5'], [''], ['1'.padEnd(80, '0')]])('answers 400 for the floor %j', async (nonceFloor) => {
      expect((await maker.request('POST', '/cancel/all', { nonceFloor })).status).toBe(400);
    });
  });

  describe('deadlines', () => {
    it('expires a resting order at its deadline, with status and history', async () => {
      const deadline = Math.floor(harness.clock.now() / 1000) + 3_600;
      const ask = await maker.limit(1, SELL, 25_000, 10, { deadline: String(deadline) });
      harness.clock.time = deadline * 1000 - 1;
      expect(await harness.services.desk.expireDue()).toBe(0);
      harness.clock.time = deadline * 1000;
      expect(await harness.services.desk.expireDue()).toBe(1);
      await maker.login();
      expect(await statusOf(maker, ask.id)).toEqual({ status: 'EXPIRED', reason: 'EXPIRED' });
      expect(await historyTypes(maker, ask.id)).toEqual(['CREATED', 'EXPIRED:EXPIRED']);
      expect((await maker.request<{ asks: unknown[] }>('GET', '/depth/1')).body.asks).toEqual([]);
    });

    it('never lets an order trade past its deadline, even before the sweep reaches it', async () => {
      const deadline = Math.floor(harness.clock.now() / 1000) + 3_600;
      const ask = await maker.limit(1, SELL, 25_000, 10, { deadline: String(deadline) });
      harness.clock.time = deadline * 1000;
      const taker = await Trader.secp256k1(harness);
      const bid = await taker.limit(1, BUY, 25_000, 10);
      expect(bid.status).toBe('ACTIVE');
      await maker.login();
      expect(await statusOf(maker, ask.id)).toEqual({ status: 'EXPIRED', reason: 'EXPIRED' });
    });

    it('leaves orders that were filled or cancelled before their deadline alone', async () => {
      const deadline = Math.floor(harness.clock.now() / 1000) + 3_600;
      const ask = await maker.limit(1, SELL, 25_000, 10, { deadline: String(deadline) });
      await maker.request('POST', '/cancel', { orderIds: [ask.id] });
      harness.clock.time = deadline * 1000;
      expect(await harness.services.desk.expireDue()).toBe(0);
    });
  });

  describe('the open-order cap', () => {
    it(`refuses a save that would take an account past ${MAX_OPEN_ORDERS_PER_ACCOUNT} open orders`, async () => {
      const ledger = await Trader.ed25519(harness);
      const batch = Array.from({ length: 250 }, (_, index) => ledger.limitRequest(1, SELL, 30_000 + index, 10));
      for (let round = 0; round < MAX_OPEN_ORDERS_PER_ACCOUNT / 250; round++) await ledger.place(batch);
      expect(harness.services.desk.books.live.countOf(ledger.account)).toBe(MAX_OPEN_ORDERS_PER_ACCOUNT);
      const reply = await ledger.save(await ledger.build([ledger.limitRequest(1, SELL, 40_000, 10)]));
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 'OPEN_ORDER_LIMIT' });
      const [first] = (await ledger.request<{ orders: { id: number }[] }>('GET', '/orders?limit=1&page=5000')).body.orders;
      await ledger.request('POST', '/cancel', { orderIds: [first?.id] });
      expect((await ledger.save(await ledger.build([ledger.limitRequest(1, SELL, 40_000, 10)]))).status).toBe(200);
    }, 120_000);
  });

  describe('a restart', () => {
    it('keeps every accepted order and rebuilds each book to the same state hash', async () => {
      const taker = await Trader.ed25519(harness);
      await maker.place([
        maker.limitRequest(1, SELL, 25_000, 30),
        maker.limitRequest(1, SELL, 25_000, 10),
        maker.limitRequest(1, SELL, 25_100, 20),
        maker.limitRequest(1, BUY, 24_000, 50),
        maker.limitRequest(2, SELL, 100_000, 10),
      ]);
      await taker.limit(1, BUY, 25_000, 35);
      const cancelled = await taker.limit(1, BUY, 23_000, 10);
      await taker.request('POST', '/cancel', { orderIds: [cancelled.id] });

      const { engines } = harness.services;
      const hashes = [1, 2, 3].map((id) => engines.engine(id)?.stateHash());
      const depth = await maker.request('GET', '/depth/1');
      const listed = await maker.request('GET', '/orders');
      await harness.restart();

      expect([1, 2, 3].map((id) => harness.services.engines.engine(id)?.stateHash())).toEqual(hashes);
      await maker.login();
      expect((await maker.request('GET', '/depth/1')).body).toEqual(depth.body);
      expect((await maker.request('GET', '/orders')).body).toEqual(listed.body);
      // The rebuilt book trades on: the partly filled first ask is still first in line.
      const [fill] = await taker.place([taker.limitRequest(1, BUY, 25_000, 4)]);
      expect(fill?.status).toBe('FILLED');
      const [oldest] = (
        await maker.request<{ orders: { id: number; filledAmount: string }[] }>('GET', '/orders?status=PARTIALLY_FILLED')
      ).body.orders;
      expect(oldest?.filledAmount).toBe('0.9');
    });
  });

  describe('rate limits on the order routes', () => {
    it('answers 429 with Retry-After past the per-account burst, and recovers with time', async () => {
      const limited = await startHarness({
        ORDER_RATE_LIMIT: 'on',
        ORDER_RATE_LIMIT_IP: '100/50',
        ORDER_RATE_LIMIT_ACCOUNT: '3/1',
      });
      try {
        const wallet = await Trader.secp256k1(limited);
        const statuses = [];
        for (let index = 0; index < 4; index++) statuses.push((await wallet.request('GET', '/orders')).status);
        expect(statuses).toEqual([200, 200, 200, 429]);
        const refused = await wallet.request('GET', '/orders');
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
        const other = await Trader.secp256k1(limited);
        expect((await other.request('GET', '/orders')).status).toBe(200);
        limited.clock.advance(1_000);
        expect((await wallet.request('GET', '/orders')).status).toBe(200);
      } finally {
        await limited.close();
      }
    });

    it('is off on the embedded default', async () => {
      for (let index = 0; index < 20; index++) expect((await maker.request('GET', '/orders')).status).toBe(200);
    });
  });
});
