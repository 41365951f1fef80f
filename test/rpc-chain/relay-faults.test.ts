import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SELL } from '@dex/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness, Trader } from '../../packages/server/src/test-support/harness.js';
import { type ExternalChain, startExternalChain } from './external-chain.js';
import { type FaultRelay, type RelayFault, startFaultRelay } from './fault-relay.js';
import {
  cancelFinal,
  cancelledOnChain,
  cross,
  filledEvents,
  onboardedTrader,
  placeRetrying,
  settledTape,
  startServiceOnChain,
} from './service-on-chain.js';

/**
 * The same production path through a relay that misbehaves as a real one under stress does: every
 * fill settles exactly once, every acknowledged cancel reaches the chain, nothing stalls, and
 * `/ready` tells while the relay is down.
 */
let dir: string;
let chain: ExternalChain;
let relay: FaultRelay;
let h: Harness;
let maker: Trader;
let taker: Trader;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-faults-'));
  chain = await startExternalChain(dir);
  relay = await startFaultRelay(() => chain.node.rpcUrl);
  h = await startServiceOnChain(chain, relay.url);
  maker = await onboardedTrader(h, chain);
  taker = await onboardedTrader(h, chain);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await relay?.close();
  await chain?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

const PHASES: readonly [string, RelayFault][] = [
  ['429 with Retry-After on every other request', { kind: 'status', status: 429, every: 2, retryAfterSeconds: 1 }],
  ['502 on every third request', { kind: 'status', status: 502, every: 3 }],
  ['503 on every third request', { kind: 'status', status: 503, every: 3 }],
  ['a request in six never answered', { kind: 'hang', every: 6 }],
  ['receipts 6 s late', { kind: 'late-receipts', delayMs: 6_000 }],
  ['a transaction accepted and dropped', { kind: 'drop-transactions', count: 1 }],
  ['nonce too low for a transaction the node took', { kind: 'nonce-too-low', count: 1 }],
];

let trades = 0;
const cancels: { trader: Trader; id: number }[] = [];

describe('a relay under stress in front of the chain', { timeout: 180_000 }, () => {
  it.each(PHASES)('settles and cancels through %s', async (_name, fault) => {
    const before = relay.hits[fault.kind];
    relay.set([fault]);
    try {
      await cross(maker, taker);
      trades += 1;
      const ask = await placeRetrying(maker, SELL, 15_000);
      expect((await maker.request('POST', '/cancel', { orderIds: [ask] })).status).toBe(202);
      cancels.push({ trader: maker, id: ask });
      await settledTape(h, trades, 120_000);
      await cancelFinal(maker, ask, 120_000);
      expect(relay.hits[fault.kind]).toBeGreaterThan(before);
    } catch (error) {
      process.stderr.write(h.logs().split('\n').slice(-60).join('\n'));
      throw error;
    } finally {
      relay.set([]);
    }
  });

  it('catches up after a restart through a relay that refuses eth_getLogs above 10 blocks', async () => {
    const before = relay.hits['log-range'];
    relay.set([{ kind: 'log-range', maxBlocks: 10n }]);
    try {
      // Down long enough for the chain to grow past the relay's range (a block every 2 s).
      await h.restart(() => new Promise((resolve) => setTimeout(resolve, 24_000)));
      await maker.login();
      await taker.login();
      await cross(maker, taker);
      trades += 1;
      await settledTape(h, trades, 120_000);
      expect(relay.hits['log-range']).toBeGreaterThan(before);
    } finally {
      relay.set([]);
    }
  });

  it('says not ready while the relay is down, keeps taking orders, and settles them once it is back', async () => {
    relay.set([{ kind: 'status', status: 503, every: 1 }]);
    try {
      expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
      await cross(maker, taker);
      trades += 1;
    } finally {
      relay.set([]);
    }
    await settledTape(h, trades, 120_000);
    expect((await h.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });

  it('settled every fill exactly once, in the transaction the tape names, and every acknowledged cancel on chain', async () => {
    const tape = await settledTape(h, trades);
    expect(tape).toHaveLength(trades);
    for (const trade of tape) {
      const events = await filledEvents(chain, trade.tradeId);
      expect(events.map((event) => event.transactionHash)).toEqual([trade.transactionHash]);
    }
    expect(await cancelledOnChain(chain, maker.swapper)).toHaveLength(cancels.length);
  });
});
