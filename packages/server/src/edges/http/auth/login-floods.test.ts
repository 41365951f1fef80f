import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../test-support/harness.js';

/**
 * Floods of login challenges, over plain HTTP from several client addresses (a trusted proxy's
 * X-Forwarded-For): nobody's pending challenge can be pushed out by others, and each address is
 * rate-limited.
 */

const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
});

async function serve(env: Record<string, string> = {}): Promise<Harness> {
  const harness = await startHarness({ TRUST_PROXY: 'true', ...env }, { listen: true });
  harnesses.push(harness);
  return harness;
}

async function post(
  h: Harness,
  path: string,
  body: unknown,
  from: string,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${h.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe("a victim's login", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await serve();
  });

  it('survives challenges requested for its account by someone else, many times', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const accountId = wallet.address.toLowerCase();
    const { body } = await post(h, '/auth/challenge', { accountId }, '198.51.100.7');
    for (let flood = 0; flood < 20; flood++) {
      expect((await post(h, '/auth/challenge', { accountId }, '203.0.113.66')).status).toBe(200);
    }
    const signature = await wallet.signMessage({ message: body.message ?? '' });
    const verified = await post(h, '/auth/verify', { accountId, signature }, '198.51.100.7');
    expect(verified.status).toBe(200);
    expect(verified.body.token).toMatch(/^eyJ/);
  });

  it("survives a flood of challenges for other accounts from one address, which only pushes out that address's own", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const accountId = wallet.address.toLowerCase();
    const { body } = await post(h, '/auth/challenge', { accountId }, '198.51.100.8');
    const firstStranger = privateKeyToAccount(generatePrivateKey());
    const first = await post(h, '/auth/challenge', { accountId: firstStranger.address.toLowerCase() }, '203.0.113.67');
    for (let flood = 0; flood < 40; flood++) {
      const stranger = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      expect((await post(h, '/auth/challenge', { accountId: stranger }, '203.0.113.67')).status).toBe(200);
    }
    const signature = await wallet.signMessage({ message: body.message ?? '' });
    expect((await post(h, '/auth/verify', { accountId, signature }, '198.51.100.8')).status).toBe(200);
    // The flooding address holds 10 open challenges at most: its first is gone.
    const late = await firstStranger.signMessage({ message: first.body.message ?? '' });
    const refused = await post(
      h,
      '/auth/verify',
      { accountId: firstStranger.address.toLowerCase(), signature: late },
      '203.0.113.67',
    );
    expect(refused).toMatchObject({ status: 401, body: { code: 'LOGIN_FAILED' } });
  });
});

describe('the login rate limit', () => {
  it('answers 429 with Retry-After past an address its burst, and serves other addresses on', async () => {
    const h = await serve({ AUTH_RATE_LIMIT_IP: '5/1' });
    const accountId = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
    const statuses: number[] = [];
    for (let request = 0; request < 7; request++)
      statuses.push((await post(h, '/auth/challenge', { accountId }, '203.0.113.9')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await fetch(`${h.url}/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ accountId, signature: `0x${'11'.repeat(65)}` }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await post(h, '/auth/challenge', { accountId }, '203.0.113.10')).status).toBe(200);
  });
});
