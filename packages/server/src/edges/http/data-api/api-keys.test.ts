import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../../domain/data-api/api-key.js';
import { dataGet, type Harness, issueApiKey, quotaHeaders, runOperatorOn, startHarness } from '../../../test-support/harness.js';
import { describeEachEngine } from '../../../test-support/store-engines.js';

const harnesses: Harness[] = [];

async function start(env: Record<string, string> = {}): Promise<Harness> {
  const harness = await startHarness(env);
  harnesses.push(harness);
  return harness;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

describeEachEngine('data API keys and quotas', (stores) => {
  /** A harness on the suite's store, with `env` on top. */
  const startOn = (env: Record<string, string> = {}) => start({ ...stores.env(), ...env });

  /** End of the harness clock's month (it starts on 2026-11-22 12:00 UTC). */
  const NOVEMBER_END = Date.UTC(2026, 11, 1);
  const DECEMBER_END = Date.UTC(2027, 0, 1);

  describe('data API keys', () => {
    it('answers 401 API_KEY_MISSING without x-api-key, with no quota headers', async () => {
      const host = await startOn();
      const reply = await dataGet(host, '/tokens');
      expect(reply).toMatchObject({ status: 401, body: { error: 'Missing x-api-key header', code: 'API_KEY_MISSING' } });
      expect(quotaHeaders(reply)).toEqual({
        limit: undefined,
        remaining: undefined,
        additionalTotal: undefined,
        reset: undefined,
      });
    });

    it('answers an unknown key and a malformed one exactly alike: 401 API_KEY_INVALID without quota headers', async () => {
      const host = await startOn();
      await issueApiKey(host, 10);
      const unknown = await dataGet(host, '/tokens', '5f0c7a52-8b1e-4c3a-9d2e-1a2b3c4d5e6f');
      const malformed = await dataGet(host, '/tokens', 'not-a-key; DROP TABLE api_keys');
      for (const reply of [unknown, malformed]) {
        expect(reply.status).toBe(401);
        expect(reply.body).toEqual({ error: 'Unknown API key', code: 'API_KEY_INVALID' });
        expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
      }
    });

    it('serves a known key in any letter case and counts each request in the four headers', async () => {
      const host = await startOn();
      const { key } = await issueApiKey(host, 5);
      const first = await dataGet(host, '/tokens', key);
      const second = await dataGet(host, '/tokens', key.toUpperCase());
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(quotaHeaders(first)).toEqual({ limit: 5, remaining: 4, additionalTotal: 0, reset: NOVEMBER_END });
      expect(quotaHeaders(second)).toEqual({ limit: 5, remaining: 3, additionalTotal: 0, reset: NOVEMBER_END });
    });

    it('puts the quota headers on 400 and 404 answers too, and counts them', async () => {
      const host = await startOn();
      const { key } = await issueApiKey(host, 10);
      const badRange = await dataGet(host, '/tokens/prices/0.0.1001?from=20&to=10&interval=HOUR', key);
      const unknownToken = await dataGet(host, '/tokens/0.0.999999', key);
      const unknownPath = await dataGet(host, '/no/such/route', key);
      expect([badRange.status, unknownToken.status, unknownPath.status]).toEqual([400, 404, 404]);
      expect([badRange, unknownToken, unknownPath].map((reply) => quotaHeaders(reply).remaining)).toEqual([9, 8, 7]);
      expect(unknownPath.body).toMatchObject({ code: 'NOT_FOUND' });
    });

    it.each([
      ['revoke', 'API_KEY_REVOKED', 'The API key has been revoked'],
      ['suspend', 'API_KEY_SUSPENDED', 'The API key is suspended'],
    ])('answers 403 after the operator runs apikey %s, with the headers and without counting', async (action, code, error) => {
      const host = await startOn();
      const { id, key } = await issueApiKey(host, 10);
      await dataGet(host, '/tokens', key);
      expect((await runOperatorOn(host, 'apikey', action, String(id))).code).toBe(0);
      const reply = await dataGet(host, '/tokens', key);
      expect(reply).toMatchObject({ status: 403, body: { error, code } });
      expect(quotaHeaders(reply)).toEqual({ limit: 10, remaining: 9, additionalTotal: 0, reset: NOVEMBER_END });
    });

    it('serves a suspended key again once it is resumed, but never a revoked one', async () => {
      const host = await startOn();
      const { id, key } = await issueApiKey(host, 10);
      await runOperatorOn(host, 'apikey', 'suspend', String(id));
      expect((await runOperatorOn(host, 'apikey', 'resume', String(id))).code).toBe(0);
      expect((await dataGet(host, '/tokens', key)).status).toBe(200);
      await runOperatorOn(host, 'apikey', 'revoke', String(id));
      expect((await runOperatorOn(host, 'apikey', 'resume', String(id))).code).toBe(1);
      expect((await dataGet(host, '/tokens', key)).status).toBe(403);
    });

    it("answers 403 API_KEY_WRONG_NETWORK to another environment's key", async () => {
      const host = await startOn();
      const { key } = await issueApiKey(host, 10, { environment: 'mainnet' });
      const reply = await dataGet(host, '/tokens', key);
      expect(reply).toMatchObject({ status: 403, body: { code: 'API_KEY_WRONG_NETWORK' } });
      expect(quotaHeaders(reply).remaining).toBe(10);
    });
  });

  describe('monthly quotas', () => {
    it('answers 429 QUOTA_EXCEEDED with Retry-After to the end of the month once the quota is used, without counting it', async () => {
      const host = await startOn();
      const { id, key } = await issueApiKey(host, 2);
      await dataGet(host, '/tokens', key);
      await dataGet(host, '/stats', key);
      const refused = await dataGet(host, '/tokens', key);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect(refused.headers['retry-after']).toBe(String((NOVEMBER_END - host.clock.now()) / 1000));
      expect(quotaHeaders(refused)).toEqual({ limit: 2, remaining: 0, additionalTotal: 0, reset: NOVEMBER_END });
      expect(await host.services.store.apiKeys.usage(id)).toEqual([
        { keyId: id, monthStart: Date.UTC(2026, 10, 1), requests: 2 },
      ]);
    });

    it('serves requests past the quota of an overage key and counts them in x-ratelimit-additional-total', async () => {
      const host = await startOn();
      const { key } = await issueApiKey(host, 2, { overage: true });
      const replies = [];
      for (let index = 0; index < 4; index++) replies.push(await dataGet(host, '/tokens', key));
      expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
      expect(replies.map((reply) => [quotaHeaders(reply).remaining, quotaHeaders(reply).additionalTotal])).toEqual([
        [1, 0],
        [0, 0],
        [0, 1],
        [0, 2],
      ]);
    });

    it('starts a fresh quota when the injected clock reaches the next UTC month', async () => {
      const host = await startOn();
      const { id, key } = await issueApiKey(host, 2);
      await dataGet(host, '/tokens', key);
      await dataGet(host, '/tokens', key);
      host.clock.time = NOVEMBER_END - 1;
      expect((await dataGet(host, '/tokens', key)).status).toBe(429);
      host.clock.time = NOVEMBER_END;
      const december = await dataGet(host, '/tokens', key);
      expect(december.status).toBe(200);
      expect(quotaHeaders(december)).toEqual({ limit: 2, remaining: 1, additionalTotal: 0, reset: DECEMBER_END });
      const usage = JSON.parse((await runOperatorOn(host, 'apikey', 'usage', String(id), '--json')).out);
      expect(usage).toMatchObject({ month: '2026-12', requests: 1, remaining: 1, resetsAt: DECEMBER_END });
      expect(usage.months).toEqual([
        { month: '2026-11', requests: 2 },
        { month: '2026-12', requests: 1 },
      ]);
    });

    it('keeps every count across a restart', async () => {
      const host = await startOn();
      const { key } = await issueApiKey(host, 5);
      for (let index = 0; index < 3; index++) await dataGet(host, '/tokens', key);
      await host.restart();
      expect(quotaHeaders(await dataGet(host, '/tokens', key)).remaining).toBe(1);
    });
  });
});

describe('key secrecy', () => {
  it('keeps neither the key nor anything but its hash in the store files, and never logs it', async () => {
    // At debug every request is logged, the successful ones included.
    const host = await start({ LOG_LEVEL: 'debug' });
    const { key } = await issueApiKey(host, 10);
    await dataGet(host, '/tokens', key);
    await dataGet(host, `/tokens?api_key=${key}`, key);
    await dataGet(host, '/tokens', `${key}x`);
    const files = readdirSync(host.config.dataDir)
      .filter((name) => name.includes('sqlite'))
      .map((name) => readFileSync(join(host.config.dataDir, name)));
    // The files read are the ones that hold the keys: the hash is there.
    expect(files.some((bytes) => bytes.includes(hashApiKey(key)))).toBe(true);
    for (const bytes of files) {
      for (const form of [key, key.toUpperCase(), key.replaceAll('-', '')]) expect(bytes.includes(form)).toBe(false);
    }
    expect(host.logs()).toContain('/data/tokens?api_key=[redacted]');
    expect(host.logs().toLowerCase()).not.toContain(key);
    expect(host.logs().toLowerCase()).not.toContain(key.replaceAll('-', ''));
  });
});

describe('data API configuration', () => {
  it('serves without keys or quota headers when DATA_API_AUTH=false (devnet benchmarks)', async () => {
    const host = await start({ DATA_API_AUTH: 'false' });
    const reply = await dataGet(host, '/tokens');
    expect(reply.status).toBe(200);
    expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('serves on its own app without a prefix when DATA_API_PORT is set, and not on the order book API', async () => {
    const host = await start({ DATA_API_PORT: '0' });
    const { key } = await issueApiKey(host, 10);
    expect(host.config.dataApi.prefix).toBe('');
    expect((await dataGet(host, '/tokens', key)).status).toBe(200);
    expect((await host.app.inject({ url: '/tokens', headers: { 'x-api-key': key } })).statusCode).toBe(404);
    expect((await host.app.inject({ url: '/data/tokens', headers: { 'x-api-key': key } })).statusCode).toBe(404);
    const unknown = await dataGet(host, '/nothing', key);
    expect(unknown.status).toBe(404);
    expect(quotaHeaders(unknown).remaining).toBe(8);
  });

  it('serves a path with a trailing slash as the route without one, behind the same gate, on both APIs', async () => {
    const host = await start();
    const { key } = await issueApiKey(host, 10);
    const plain = await dataGet<unknown[]>(host, '/tokens', key);
    const slashed = await dataGet<unknown[]>(host, '/tokens/', key);
    expect(slashed).toMatchObject({ status: 200, body: plain.body });
    expect(quotaHeaders(slashed).remaining).toBe(8);
    expect(await dataGet(host, '/farms/')).toMatchObject({ status: 401, body: { code: 'API_KEY_MISSING' } });
    const unknown = await dataGet(host, '/no/such/route/', key);
    expect(unknown).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect(quotaHeaders(unknown).remaining).toBe(7);
    const books = await host.app.inject({ url: '/books/' });
    expect(books.statusCode).toBe(200);
    expect(books.json()).toEqual((await host.app.inject({ url: '/books' })).json());
    expect(books.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await host.app.inject({ url: '/no/such/route/' })).json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the default token icon without a key, beside the data API and at the order book API root', async () => {
    const shared = await start();
    const own = await start({ DATA_API_PORT: '0' });
    const atRoot = await start({ DATA_API_PREFIX: '/' });
    const icons = [
      await shared.app.inject({ url: '/data/images/tokens/default.svg' }),
      await shared.app.inject({ url: '/images/tokens/default.svg' }),
      await own.dataApi.inject({ url: '/images/tokens/default.svg' }),
      await own.app.inject({ url: '/images/tokens/default.svg' }),
      await atRoot.app.inject({ url: '/images/tokens/default.svg' }),
    ];
    for (const icon of icons) {
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.body).toMatch(/^<svg [^>]+>.*<\/svg>$/);
      expect(icon.headers['x-ratelimit-limit']).toBeUndefined();
    }
    const { key } = await issueApiKey(shared, 10);
    const tokens = await dataGet<{ icon: string }[]>(shared, '/tokens', key);
    expect((await shared.app.inject({ url: `/data${tokens.body[0]?.icon}` })).statusCode).toBe(200);
  });

  it('leaves the order book API without the key gate', async () => {
    const host = await start();
    expect((await host.app.inject({ url: '/books' })).statusCode).toBe(200);
    expect((await host.app.inject({ url: '/health' })).headers['x-ratelimit-limit']).toBeUndefined();
  });
});
