import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, Trader, WHBAR_SELL_REQUEST } from '../src/test-support/harness.js';

/** What the answers tell browsers and caches, read over plain HTTP on a listening server. */

const harnesses: Harness[] = [];
async function serve(env: Record<string, string> = {}): Promise<Harness> {
  const harness = await startHarness(env, { listen: true });
  harnesses.push(harness);
  return harness;
}

afterAll(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
});

describe('answers with account data or a login secret', () => {
  let h: Harness;
  let trader: Trader;
  beforeAll(async () => {
    h = await serve();
    trader = await Trader.secp256k1(h);
  });

  it.each([
    ['POST', '/auth/challenge', { accountId: '0x2183d1f54d1b4e7a60a1fe0d8a34c19a9c6b1e2f' }],
    ['GET', '/orders', undefined],
    ['GET', '/fees/1', undefined],
    ['GET', '/onboarding/1/status', undefined],
    ['POST', '/orders/build', { orderRequests: [WHBAR_SELL_REQUEST] }],
  ] as const)('%s %s is never stored by a cache', async (method, path, body) => {
    const response = await fetch(`${h.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${trader.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('public market data may be cached', async () => {
    expect((await fetch(`${h.url}/books`)).headers.get('cache-control')).not.toBe('no-store');
  });
});

describe('security headers', () => {
  it('forbid framing and loading anything into an API answer, and send no referrer', async () => {
    const h = await serve();
    const response = await fetch(`${h.url}/books`);
    expect(
      Object.fromEntries(
        ['x-frame-options', 'content-security-policy', 'referrer-policy', 'x-content-type-options'].map((name) => [
          name,
          response.headers.get(name),
        ]),
      ),
    ).toEqual({
      'x-frame-options': 'DENY',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
    });
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });

  it('give /docs a policy for its own scripts and styles only, never framed', async () => {
    const h = await serve();
    const response = await fetch(`${h.url}/docs/static/index.html`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-|https:|upgrade-insecure-requests|validator\.swagger\.io|frame-ancestors 'self'/);
  });

  it('keep the web page its own policy', async () => {
    const h = await serve();
    const policy = (await fetch(`${h.url}/`)).headers.get('content-security-policy') ?? '';
    expect(policy).toContain("connect-src 'self'");
  });

  it('ask for HTTPS only when a trusted proxy says the client came over TLS', async () => {
    const trusting = await serve({ TRUST_PROXY: 'true' });
    const hsts = async (url: string, proto: string) =>
      (await fetch(`${url}/books`, { headers: { 'x-forwarded-proto': proto } })).headers.get('strict-transport-security');
    expect(await hsts(trusting.url, 'https')).toBe('max-age=31536000; includeSubDomains');
    expect(await hsts(trusting.url, 'http')).toBeNull();
    expect(await hsts((await serve()).url, 'https')).toBeNull();
  });
});

describe('the order rate limit', () => {
  it('charges a batch its size', async () => {
    const h = await serve({ ORDER_RATE_LIMIT: 'on', ORDER_RATE_LIMIT_IP: '1000/500', ORDER_RATE_LIMIT_ACCOUNT: '10/1' });
    const trader = await Trader.secp256k1(h);
    const build = (size: number) =>
      fetch(`${h.url}/orders/build`, {
        method: 'POST',
        headers: { authorization: `Bearer ${trader.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orderRequests: Array.from({ length: size }, () => WHBAR_SELL_REQUEST) }),
      });
    expect((await build(8)).status).toBe(200);
    const refused = await build(8);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await build(2)).status).toBe(200);
  });
});
