import { join } from 'node:path';
import { BUY, SELL } from '@dex/core';
import { type Address, toHex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorIo } from '../../../composition/operator-wiring.js';
import { runOperator } from '../../../edges/cli/operator.js';
import { fund, tokenBalance } from '../../../test-support/funded-trader.js';
import { type Harness, ManualClock, startHarness, Trader, tempDataDir } from '../../../test-support/harness.js';
import { openSqliteStore } from '../../sqlite/sqlite-store.js';
import { EMPTY_WORDS_TO_STOP, highestSettledFillAbove, settledFillWordSlot } from './settled-fill-ids.js';

let h: Harness;
let backups: ReturnType<typeof tempDataDir>;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()) });
  backups = tempDataDir();
});

afterAll(async () => {
  await h?.close();
  backups?.remove();
});

function settlement() {
  const value = h.services.settlement;
  if (value === null) throw new Error('settlement is off');
  return value;
}

/** Runs `backup` or `restore` through the operator CLI on `dataDir`'s store; with `own`, on a connection of its own (a stopped service). */
async function storeCommand(dataDir: string, own: boolean, ...argv: string[]): Promise<{ code: number; out: string }> {
  const store = own ? await openSqliteStore(join(dataDir, 'devnet.sqlite')) : h.services.store;
  const out: string[] = [];
  try {
    const io = operatorIo({
      store,
      network: 'devnet',
      clock: h.clock,
      out: (line) => out.push(line),
      err: (line) => out.push(line),
      storeFile: { path: join(dataDir, 'devnet.sqlite'), owned: own },
    });
    return { code: await runOperator(argv, io), out: out.join('\n') };
  } finally {
    if (own) await store.close();
  }
}

/** Waits until no trade waits for settlement; returns book 1's tape (past its cache). */
async function settledTape(): Promise<{ tradeId: number; transactionHash: string }[]> {
  const { store } = h.services;
  for (let attempt = 0; attempt < 400; attempt++) {
    settlement().settler.wake();
    if ((await store.settlements.pending(1)).length === 0 && (await store.settlements.submitted()).length === 0) {
      h.clock.advance(60_000);
      const reply = await h.app.inject({ method: 'GET', url: '/trades/1?limit=100' });
      return (reply.json() as { trades: { tradeId: number; transactionHash: string }[] }).trades;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('trades were not settled in time');
}

describe('a store restored behind its devnet chain', () => {
  it('catches up with the fills the chain settled after the backup: each is recorded settled, none is sent again', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const owners = [maker.swapper, taker.swapper];
    const balances = () =>
      Promise.all(
        owners.flatMap((owner) =>
          [market.base.evmAddress, market.quote.evmAddress].map((token) => tokenBalance(h, token, owner)),
        ),
      );
    const start = await balances();

    // The settler waits, so the backup holds the trades unsettled.
    await settlement().settler.stop();
    await maker.limit(1, SELL, 100_000, 5);
    expect((await taker.limit(1, BUY, 100_000, 2)).status).toBe('FILLED');
    expect((await taker.limit(1, BUY, 100_000, 1)).status).toBe('FILLED');
    const unsettled = await h.services.store.settlements.pending(100);
    expect(unsettled).toHaveLength(2);
    const backup = join(backups.dir, 'devnet.backup');
    expect((await storeCommand(h.config.dataDir, false, 'backup', '--to', backup)).code).toBe(0);

    await settlement().settler.start();
    const settled = await settledTape();
    expect(settled).toHaveLength(2);
    for (const trade of settled) expect(trade.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    const moved = await balances();
    expect(moved).not.toEqual(start);

    // The chain (its state in DATA_DIR) stays as it is; the store goes back to the backup.
    await h.restart(async () => {
      const restored = await storeCommand(h.config.dataDir, true, 'restore', '--from', backup);
      expect(restored.out).toContain('restored');
      expect(restored.code).toBe(0);
    });
    const tape = await settledTape();
    // Found again in the blocks the restored cursor reads anew: with the transactions that settled them.
    expect(tape).toEqual(settled);
    expect(await h.services.store.settlements.unsettled(unsettled.map((trade) => trade.tradeId))).toEqual(new Set());
    // Settled once: the balances are those of the first settlement.
    expect(await balances()).toEqual(moved);
    expect(h.logs()).not.toContain('"level":50');
    // Every fill the chain settled is in the restored store: no id is skipped.
    expect(h.logs()).not.toContain('new trade ids start after');
  });

  it('gives the trades made after a restore ids past the fills the chain settled after the backup, and settles them in transactions of their own', async () => {
    const maker = await fund(h, await Trader.secp256k1(h));
    const taker = await fund(h, await Trader.ed25519(h));
    const market = h.services.registry.get(1);
    if (market === undefined) throw new Error('no book 1');
    const takerFunds = () =>
      Promise.all([market.base.evmAddress, market.quote.evmAddress].map((token) => tokenBalance(h, token, taker.swapper)));
    // Below the asks left by the test above, whose fills after its backup the restored store does not know.
    await maker.limit(1, SELL, 99_000, 10);
    expect((await taker.limit(1, BUY, 99_000, 2)).status).toBe('FILLED');
    await settledTape();
    const backup = join(backups.dir, 'devnet-settled.backup');
    expect((await storeCommand(h.config.dataDir, false, 'backup', '--to', backup)).code).toBe(0);
    const inBackup = await h.services.store.trades.highestId();

    // Made and settled after the backup: on the chain only, once it is restored.
    expect((await taker.limit(1, BUY, 99_000, 2)).status).toBe('FILLED');
    expect((await taker.limit(1, BUY, 99_000, 2)).status).toBe('FILLED');
    const settled = await settledTape();
    const lost = settled.filter((trade) => trade.tradeId > inBackup);
    expect(lost.map((trade) => trade.tradeId)).toEqual([inBackup + 2, inBackup + 1]);

    await h.restart(async () => {
      expect((await storeCommand(h.config.dataDir, true, 'restore', '--from', backup)).code).toBe(0);
    });
    expect(h.logs()).toContain(
      `the chain has settled fills the store does not know (a restored backup?): new trade ids start after ${inBackup + 2}`,
    );
    const before = await takerFunds();
    expect((await taker.limit(1, BUY, 99_000, 2)).status).toBe('FILLED');
    const [fresh] = await settledTape();
    expect(fresh?.tradeId).toBe(inBackup + 3);
    expect(fresh?.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settled.map((trade) => trade.transactionHash)).not.toContain(fresh?.transactionHash);
    // 0.2 WHBAR at 0.99 USDC: the taker pays 0.198 USDC and receives 0.2 WHBAR less its fee.
    const base = 20_000_000n;
    const fee = (base * BigInt(market.book.takerFeePips) + 999_999n) / 1_000_000n;
    const after = await takerFunds();
    expect(after).toEqual([(before[0] as bigint) + base - fee, (before[1] as bigint) - 198_000n]);
    expect(h.logs()).not.toContain('"level":50');

    // The floor is kept: a restart neither warns again nor gives an id twice.
    await h.restart();
    expect((await taker.limit(1, BUY, 99_000, 2)).status).toBe('FILLED');
    expect((await settledTape())[0]?.tradeId).toBe(inBackup + 4);
  });
});

describe("the settled fill ids read from the reactor's storage", () => {
  /** A scratch account whose storage is laid out as the reactor's: the service's reactor stays as it is. */
  const scratch = '0x00000000000000000000000000000000000f111d' as Address;

  async function settle(...ids: number[]): Promise<void> {
    const devnet = settlement().chain.devnet;
    if (devnet === null) throw new Error('not a devnet');
    const words = new Map<number, bigint>();
    for (const id of ids) words.set(id >> 8, (words.get(id >> 8) ?? 0n) | (1n << BigInt(id & 0xff)));
    for (const [word, bits] of words)
      await devnet.test.setStorageAt({
        address: scratch,
        index: settledFillWordSlot(BigInt(word)),
        value: toHex(bits, { size: 32 }),
      });
  }

  const highestAbove = (above: number) => highestSettledFillAbove({ public: settlement().chain.public, reactor: scratch }, above);

  it('finds the highest settled id above the given one across words, ignores those at or below it, and stops after a run of empty words', async () => {
    expect(await highestAbove(0)).toBeNull();
    // Words 0, 1, then 3 after one empty word, then one past a run of EMPTY_WORDS_TO_STOP empty words.
    const beyond = (3 + EMPTY_WORDS_TO_STOP + 1) * 256 + 9;
    await settle(1, 2, 255, 256, 300, 3 * 256 + 17, beyond);
    expect(await highestAbove(0)).toBe(3 * 256 + 17);
    expect(await highestAbove(254)).toBe(3 * 256 + 17);
    expect(await highestAbove(3 * 256 + 16)).toBe(3 * 256 + 17);
    expect(await highestAbove(3 * 256 + 17)).toBeNull();
    expect(await highestAbove(beyond - 1)).toBe(beyond);
    expect(await highestAbove(beyond)).toBeNull();
  });
});
