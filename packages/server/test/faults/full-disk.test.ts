import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUY, SELL } from '@dex/core';
import { afterAll, describe, expect, it } from 'vitest';
import { TRADING_PAUSE_MS } from '../../src/application/desk/desk-sequencer.js';
import { expectStorageRefusal, ordersOf } from '../../src/test-support/fault-replies.js';
import { dataGet, issueApiKey, type Reply, startHarness, Trader, until } from '../../src/test-support/harness.js';

/**
 * Fault suite: the service's DATA_DIR is a 4 MiB tmpfs that a filler file fills while it trades.
 * Bound: one test of at most 60 s (it takes a few seconds). Needs `mount -t tmpfs` (root); where
 * mounting is refused the suite is skipped with a notice, never failed.
 */
const DISK = mkdtempSync(join(tmpdir(), 'dex-full-disk-'));
const FILLER = join(DISK, 'filler');

function mountTmpfs(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', DISK], { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.warn(`full-disk suite skipped: cannot mount a tmpfs at ${DISK} (${String(error).split('\n')[0]})`);
    rmSync(DISK, { recursive: true, force: true });
    return false;
  }
}

const mounted = mountTmpfs();

afterAll(() => {
  if (!mounted) return;
  execFileSync('umount', [DISK]);
  rmSync(DISK, { recursive: true, force: true });
});

/** Writes the filler until the disk has no byte left. */
function fillDisk(): void {
  const fd = openSync(FILLER, 'w');
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Builds and saves one limit order: the build's or the save's reply, and the saved id. */
async function buildAndSave(
  trader: Trader,
  side: typeof BUY | typeof SELL,
  priceTicks: number,
): Promise<{ reply: Reply; id?: number }> {
  const build = await trader.request<{ orders: Parameters<Trader['save']>[0] }>('POST', '/orders/build', {
    orderRequests: [trader.limitRequest(1, side, priceTicks, 10)],
  });
  if (build.status !== 200) return { reply: build };
  const reply = await trader.save(build.body.orders);
  const id = reply.status === 200 ? Number(reply.body.orders[0]?.meta.id) : undefined;
  return id === undefined ? { reply } : { reply, id };
}

describe.skipIf(!mounted)('a full disk under DATA_DIR', () => {
  it('answers writes 503 with the common error body, keeps every acknowledged order, and trades again once space returns', async () => {
    const h = await startHarness({ DATA_DIR: DISK });
    try {
      const maker = await Trader.secp256k1(h);
      const { key } = await issueApiKey(h, 1_000);
      const acknowledged = new Map<number, 'ask' | 'bid'>();
      // A resting bid the asks below do not reach, to cancel later.
      const bid = await maker.limit(1, BUY, 20_000, 10);
      acknowledged.set(bid.id, 'bid');
      const ask = await maker.limit(1, SELL, 30_000, 10);
      acknowledged.set(ask.id, 'ask');

      // Built (nonces issued) before the disk fills: their saves reach the desk, whose commits fail.
      const taker = await Trader.secp256k1(h);
      const crossing = await taker.build([taker.limitRequest(1, BUY, 30_000, 10)]);
      const asks = await maker.build(Array.from({ length: 50 }, (_, index) => maker.limitRequest(1, SELL, 30_001 + index, 10)));

      fillDisk();
      // SQLite may still have room in its write-ahead log: trade until the disk refuses.
      let refusal: Reply | undefined;
      for (const built of asks) {
        const reply = await maker.save([built]);
        if (reply.status !== 200) {
          refusal = reply;
          break;
        }
        acknowledged.set(Number(reply.body.orders[0]?.meta.id), 'ask');
      }
      if (refusal === undefined) throw new Error('50 orders fitted on the full disk');
      console.info(`full disk: ${acknowledged.size - 2} saves acknowledged after the filler, then ${refusal.body.code}`);
      expectStorageRefusal(refusal, ['TRADING_UNAVAILABLE']);
      // A bid that crosses the resting ask matches in memory, but its commit fails: refused, and undone.
      expectStorageRefusal(await taker.save(crossing), ['TRADING_UNAVAILABLE']);
      await new Promise((resolve) => setTimeout(resolve, TRADING_PAUSE_MS + 100));
      expectStorageRefusal(await taker.save(crossing), ['TRADING_UNAVAILABLE']);

      // While the disk is full: writes are refused the same way, reads and logins (which write nothing) go on.
      // A build issues nonces: a write outside the desk.
      expectStorageRefusal((await buildAndSave(maker, SELL, 40_000)).reply, ['STORAGE_UNAVAILABLE']);
      expectStorageRefusal(await maker.request('POST', '/cancel', { orderIds: [bid.id] }), ['TRADING_UNAVAILABLE']);
      const usage = await dataGet(h, '/tokens', key);
      expectStorageRefusal({ status: usage.status, body: usage.body as Record<string, unknown> }, ['USAGE_UNAVAILABLE']);
      for (const url of ['/books', '/depth/1', '/trades/1']) {
        expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(200);
      }
      // The ask the refused bid crossed rests whole: what was answered is what the books hold.
      const depthWhileFull = (await h.app.inject({ method: 'GET', url: '/depth/1' })).json() as { asks: string[][] };
      expect(depthWhileFull.asks[0]).toEqual(['0.3', '1']);
      const another = await Trader.secp256k1(h);
      expect((await another.request('GET', '/orders')).status).toBe(200);

      // Space returns: without a restart, the desk rebuilds its books from the store and trades again.
      rmSync(FILLER);
      const takerBid = await until(
        async () => {
          const { id } = await buildAndSave(taker, BUY, 30_000);
          return id;
        },
        'a save after space returned',
        10_000,
        100,
      );
      expect((await ordersOf(taker)).get(takerBid)).toBe('FILLED');
      expect((await ordersOf(maker)).get(ask.id)).toBe('FILLED');
      expect((await maker.request('POST', '/cancel', { orderIds: [bid.id] })).status).toBe(202);
      expect((await dataGet(h, '/tokens', key)).status).toBe(200);

      // Every acknowledged order is stored, and nothing that was refused: a refused group left no trace.
      const stored = await ordersOf(maker);
      expect([...stored.keys()].sort((a, b) => a - b)).toEqual([...acknowledged.keys()].sort((a, b) => a - b));
      const depth = (await h.app.inject({ method: 'GET', url: '/depth/1' })).json();
      await h.restart();
      expect(await ordersOf(maker)).toEqual(stored);
      expect((await h.app.inject({ method: 'GET', url: '/depth/1' })).json()).toEqual(depth);
    } finally {
      await h.close();
    }
  }, 60_000);
});
