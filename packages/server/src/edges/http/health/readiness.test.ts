import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freezeProcess, thawProcess } from '../../../test-support/frozen-process.js';
import { type Harness, startHarness } from '../../../test-support/harness.js';

describe('readiness without a chain', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ CHAIN: 'off' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is ready once the store answers', async () => {
    const reply = await h.app.inject({ url: '/ready' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ status: 'ready', dependencies: ['store'] });
  });
});

describe('readiness with the devnet chain', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ CHAIN: 'devnet' });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 503 NOT_READY naming the chain while its node is frozen, stays live, and is ready again once it answers', async () => {
    expect((await h.app.inject({ url: '/ready' })).json()).toEqual({ status: 'ready', dependencies: ['store', 'chain'] });
    const node = Number(readFileSync(join(h.config.dataDir, 'devnet-chain.pid'), 'utf8'));
    await freezeProcess(node);
    try {
      const started = Date.now();
      const frozen = await h.app.inject({ url: '/ready' });
      expect(frozen.statusCode).toBe(503);
      expect(frozen.json()).toEqual({ error: 'Not ready: chain did not answer within 2 s', code: 'NOT_READY' });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await h.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      thawProcess(node);
    }
    expect((await h.app.inject({ url: '/ready' })).statusCode).toBe(200);
  });
});
