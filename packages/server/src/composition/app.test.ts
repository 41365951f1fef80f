import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness({ BODY_LIMIT_BYTES: '2048' });
});
afterEach(async () => {
  await harness.close();
});

describe('the app', () => {
  it('answers unknown routes with the JSON error body', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/no/such/route?token=secret' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No route GET /no/such/route', code: 'NOT_FOUND' });
  });

  it.each([
    ['malformed JSON', { 'content-type': 'application/json' }, '{"a":', 400, 'MALFORMED_JSON'],
    ['a body that is not JSON', { 'content-type': 'text/plain' }, 'accountId=0.0.5', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'a body over the limit',
      { 'content-type': 'application/json' },
      JSON.stringify({ a: 'x'.repeat(4096) }),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ])('answers %s with the common error body', async (_name, headers, payload, status, code) => {
    const response = await harness.app.inject({ method: 'POST', url: '/auth/challenge', headers, payload });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code });
  });

  it('echoes a plain x-request-id and replaces a hostile one', async () => {
    const kept = await harness.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'client-42' } });
    expect(kept.headers['x-request-id']).toBe('client-42');
    const replaced = await harness.app.inject({
      method: 'GET',
      url: '/health',
      headers: { 'x-request-id': 'a b\u0000<script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.headers['x-content-type-options']).toBe('nosniff');
  });

  it('removes at start the temp file a write cut short by a crash left in DATA_DIR', async () => {
    // Process ids are below 2^22 on Linux: this writer never runs.
    const stray = join(harness.config.dataDir, 'devnet-chain.json.4194999.1.tmp');
    writeFileSync(stray, '{"cut');
    await harness.restart();
    expect(existsSync(stray)).toBe(false);
    expect(harness.logs()).toContain('removed temp files a crashed write left in DATA_DIR');
  });

  it('reports health with the store checked', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/health' });
    expect(response.json()).toEqual({ status: 'ok', network: 'devnet', time: harness.clock.now(), uptimeSeconds: 0, books: 4 });
  });

  it('publishes an OpenAPI document of every route, generated from the route schemas', async () => {
    const document = (await harness.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths).sort()).toEqual([
      '/auth/challenge',
      '/auth/verify',
      '/books',
      '/books/{orderbookId}/candles',
      '/books/{orderbookId}/quote/exact-input',
      '/books/{orderbookId}/quote/exact-output',
      '/cancel',
      '/cancel/after',
      '/cancel/all',
      '/data/farms',
      '/data/farms/totals/{accountId}',
      '/data/pools',
      '/data/pools/conversionRates/latest/{poolId}',
      '/data/pools/conversionRates/{poolId}',
      '/data/pools/daily',
      '/data/pools/daily/{poolId}',
      '/data/pools/full',
      '/data/pools/known',
      '/data/pools/monthly',
      '/data/pools/monthly/{poolId}',
      '/data/pools/weekly',
      '/data/pools/weekly/{poolId}',
      '/data/pools/yearly',
      '/data/pools/yearly/{poolId}',
      '/data/pools/{poolId}',
      '/data/stats',
      '/data/stats/hbarHistoricalPrices',
      '/data/stats/platformData',
      '/data/stats/sss',
      '/data/tokens',
      '/data/tokens/associated-pools/{tokenId}',
      '/data/tokens/daily',
      '/data/tokens/daily/{tokenId}',
      '/data/tokens/default',
      '/data/tokens/full',
      '/data/tokens/known',
      '/data/tokens/monthly',
      '/data/tokens/monthly/{tokenId}',
      '/data/tokens/ohlcv/latest',
      '/data/tokens/price-change',
      '/data/tokens/prices/latest/{tokenId}',
      '/data/tokens/prices/{tokenId}',
      '/data/tokens/weekly',
      '/data/tokens/weekly/{tokenId}',
      '/data/tokens/yearly',
      '/data/tokens/yearly/{tokenId}',
      '/data/tokens/{tokenId}',
      '/data/v2/nfts/{accountId}/positions',
      '/data/v2/pools',
      '/data/v2/pools/conversionRates/{poolId}',
      '/data/v2/pools/full',
      '/data/v2/pools/{poolId}',
      '/data/v2/rewards/account/{accountId}',
      '/depth/{orderbookId}',
      '/fees/{orderbookId}',
      '/health',
      '/onboarding/{orderbookId}/status',
      '/orders',
      '/orders/build',
      '/orders/save',
      '/orders/{orderId}/history',
      '/ready',
      '/settlements/{transactionHash}',
      '/signature/domain',
      '/trades/{orderbookId}',
    ]);
    expect(Object.keys(document.paths['/trades/{orderbookId}']?.get?.responses ?? {})).toEqual(['200', '400', '404']);
    expect(Object.keys(document.paths['/data/tokens/{tokenId}']?.get?.responses ?? {})).toEqual([
      '200',
      '401',
      '403',
      '404',
      '429',
      '503',
    ]);
  });

  it('serves a documentation page at /docs', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
