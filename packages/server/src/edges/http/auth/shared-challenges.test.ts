import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test-support/harness.js';
import { forgetKeys, REDIS_AVAILABLE, REDIS_TEST_URL, testKeyPrefix } from '../../../test-support/redis.js';

/** Two gateways sharing login challenges through Redis (each on a store of its own: the challenges are all they share here). */
describe.skipIf(!REDIS_AVAILABLE)('login challenges shared through Redis', () => {
  const prefix = testKeyPrefix();
  let gateways: Harness[] = [];

  beforeEach(async () => {
    const env = { REDIS_URL: REDIS_TEST_URL, REDIS_KEY_PREFIX: prefix };
    gateways = [await startHarness(env), await startHarness(env)];
  });
  afterEach(async () => {
    for (const gateway of gateways) await gateway.close();
    await forgetKeys(prefix);
  });

  async function post(gateway: Harness | undefined, url: string, payload: object) {
    const response = await (gateway as Harness).app.inject({ method: 'POST', url, payload });
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  }

  it('answers at one gateway the challenge another issued, once, and not after it expired', async () => {
    const [first, second] = gateways;
    expect((await (first as Harness).app.inject({ url: '/ready' })).json()).toMatchObject({ dependencies: ['store', 'redis'] });
    const wallet = privateKeyToAccount(generatePrivateKey());
    const { body } = await post(first, '/auth/challenge', { accountId: wallet.address });
    const signature = await wallet.signMessage({ message: body.message as string });
    expect(await post(second, '/auth/verify', { accountId: wallet.address, signature })).toMatchObject({ status: 200 });
    expect(await post(first, '/auth/verify', { accountId: wallet.address, signature })).toMatchObject({
      status: 401,
      body: { code: 'LOGIN_FAILED' },
    });

    const late = await post(first, '/auth/challenge', { accountId: wallet.address });
    (second as Harness).clock.advance(300_000);
    const lateSignature = await wallet.signMessage({ message: late.body.message as string });
    expect((await post(second, '/auth/verify', { accountId: wallet.address, signature: lateSignature })).status).toBe(401);
  });
});
