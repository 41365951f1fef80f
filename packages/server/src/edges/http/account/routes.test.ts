import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader } from '../../../test-support/harness.js';

let harness: Harness;
let trader: Trader;

beforeEach(async () => {
  harness = await startHarness();
  trader = await Trader.secp256k1(harness);
});
afterEach(async () => {
  await harness.close();
});

describe('GET /fees/:orderbookId', () => {
  it("answers the book's fee rates, maker side by default", async () => {
    const reply = await trader.request('GET', '/fees/1');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      side: 'maker',
      marketId: `0x${'1'.padStart(64, '0')}`,
      makerFeePips: 0,
      takerFeePips: 1_000,
      capFractionPips: 0,
    });
    expect((await trader.request('GET', '/fees/1?side=taker')).body).toMatchObject({ side: 'taker' });
  });

  it("answers the operator's override for this account only", async () => {
    await harness.services.store.feeOverrides.set({
      account: trader.account,
      bookId: 1,
      takerFeePips: 300,
      makerFeePips: 20,
      capFractionPips: 0,
      updatedAt: harness.clock.now(),
    });
    expect((await trader.request('GET', '/fees/1')).body).toMatchObject({ takerFeePips: 300, makerFeePips: 20 });
    const other = await Trader.secp256k1(harness);
    expect((await other.request('GET', '/fees/1')).body).toMatchObject({ takerFeePips: 1_000, makerFeePips: 0 });
  });

  it('answers a maker rebate as a negative maker fee with its cap, as the live service does', async () => {
    await harness.services.store.feeOverrides.set({
      account: trader.account,
      bookId: 1,
      takerFeePips: 1_000,
      makerFeePips: -200,
      capFractionPips: 250_000,
      updatedAt: harness.clock.now(),
    });
    expect((await trader.request('GET', '/fees/1')).body).toMatchObject({ makerFeePips: -200, capFractionPips: 250_000 });
  });

  it('answers 400 for another side, 404 for an unknown book and 401 without a token', async () => {
    expect((await trader.request('GET', '/fees/1?side=both')).status).toBe(400);
    expect((await trader.request('GET', '/fees/9')).body).toMatchObject({ code: 'ORDERBOOK_NOT_FOUND' });
    expect((await trader.request('GET', '/fees/x')).status).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: '/fees/1' })).statusCode).toBe(401);
  });
});

describe('GET /onboarding/:orderbookId/status', () => {
  it('reports every step complete, since this deployment needs none of them', async () => {
    const reply = await trader.request('GET', '/onboarding/1/status');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      steps: {
        associateBaseToken: true,
        associateQuoteToken: true,
        approveBaseTokenPermit2: true,
        approveQuoteTokenPermit2: true,
        approveBaseTokenReactor: true,
        approveQuoteTokenReactor: true,
      },
      pendingSteps: [],
      completedSteps: [
        'associateBaseToken',
        'associateQuoteToken',
        'approveBaseTokenPermit2',
        'approveQuoteTokenPermit2',
        'approveBaseTokenReactor',
        'approveQuoteTokenReactor',
      ],
      isComplete: true,
      baseToken: harness.services.registry.get(1)?.base.evmAddress.toLowerCase(),
      quoteToken: harness.services.registry.get(1)?.quote.evmAddress.toLowerCase(),
      reactor: harness.services.domain.verifyingContract.toLowerCase(),
      // No settlement chain: no Permit2 to name.
      permit2: null,
    });
  });

  it('answers 404 for an unknown book and 401 without a token', async () => {
    expect((await trader.request('GET', '/onboarding/7/status')).status).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: '/onboarding/1/status' })).statusCode).toBe(401);
  });
});

describe('ledger accounts from a mirror node', () => {
  let mirror: Server;
  let mirrorUrl: string;
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const rawKey = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('hex');

  beforeEach(async () => {
    mirror = createServer((request, response) => {
      const known = request.url?.startsWith('/api/v1/accounts/0.0.48213?') ?? false;
      response.writeHead(known ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          known
            ? {
                account: '0.0.48213',
                alias: null,
                balance: { balance: 100_000_000, timestamp: '1763800000.000000000', tokens: [] },
                deleted: false,
                evm_address: '0x000000000000000000000000000000000000bc55',
                key: { _type: 'ED25519', key: rawKey },
                memo: '',
              }
            : { _status: { messages: [{ message: 'Not found' }] } },
        ),
      );
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    mirror.closeAllConnections();
    await new Promise<void>((resolve) => mirror.close(() => resolve()));
  });

  it('logs in a 0.0.X account whose Ed25519 key the mirror node serves', async () => {
    const withMirror = await startHarness({ MIRROR_NODE_URL: mirrorUrl });
    try {
      const post = async (url: string, payload: object) => withMirror.app.inject({ method: 'POST', url, payload });
      const { message } = (await post('/auth/challenge', { accountId: '0.0.48213' })).json() as { message: string };
      const signature = `0x${sign(null, Buffer.from(message), privateKey).toString('hex')}`;
      const verified = await post('/auth/verify', { accountId: '0.0.48213', signature });
      expect(verified.statusCode).toBe(200);
      expect((await post('/auth/challenge', { accountId: '0.0.48214' })).json()).toMatchObject({ code: 'UNKNOWN_ACCOUNT' });
    } finally {
      await withMirror.close();
    }
  });
});
