import { Writable } from 'node:stream';
import { BUY, longZeroAddress, type Side, toWireOrder } from '@dex/core';
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.js';
import type { AdmissionChecks } from '../application/desk/admission-checks.js';
import type { DeskBooks } from '../application/desk/desk-books.js';
import { DeskEvents } from '../application/desk/desk-events.js';
import type { DeskPools } from '../application/desk/desk-pools.js';
import type { DeskSequencer } from '../application/desk/desk-sequencer.js';
import { EngineHost } from '../application/desk/engine-host.js';
import type { OrderCandidate } from '../application/desk/order-desk.js';
import { TradingDesk } from '../application/desk/trading-desk.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { DEVNET_NATIVE_TOKEN_ID, seedDevnet } from '../application/markets/seed.js';
import { createLogger } from '../composition/logging.js';
import type { DeskCommit } from '../domain/orders/desk-commit.js';
import type { Store } from '../ports/store/ports.js';
import { DEVNET_ADDRESS } from './devnet-addresses.js';
import { ManualClock } from './manual-clock.js';
import { tempDataDir } from './temp-data-dir.js';

/**
 * The trading desk as `TradingDesk.open` wires it, on a real store (SQLite unless told) seeded with
 * the devnet markets and real engines, without the HTTP app, with its parts in reach: for the
 * desk's unit tests.
 */
export interface DeskParts {
  readonly store: Store;
  readonly clock: ManualClock;
  readonly trading: TradingDesk;
  readonly books: DeskBooks;
  readonly sequencer: DeskSequencer;
  readonly checks: AdmissionChecks;
  readonly engines: EngineHost;
  readonly pools: DeskPools;
  /** Every commit group published so far. */
  readonly commits: DeskCommit[];
  /** Every log line so far. */
  readonly logs: () => string;
  /** Issues `count` nonces to the account for orders of `bookId` (default 1), as /orders/build does. */
  nonces(account: string, count: number, bookId?: number): Promise<bigint[]>;
  close(): Promise<void>;
}

export interface DeskPartsOptions {
  readonly confirmCancels?: boolean;
  /** The store to seed and use: a fresh SQLite file by default. */
  readonly openStore?: () => Promise<Store>;
  /** The engine's shard among several writing one store: ids of its own residue. Default: the one engine. */
  readonly shard?: { readonly index: number; readonly count: number };
}

export async function openDeskParts(options: DeskPartsOptions = {}): Promise<DeskParts> {
  const data = tempDataDir();
  const store = await (options.openStore ?? (() => openSqliteStore(`${data.dir}/desk.sqlite`)))();
  const clock = new ManualClock();
  await seedDevnet(store, clock.now());
  const registry = new MarketRegistry(store, longZeroAddress(DEVNET_NATIVE_TOKEN_ID));
  await registry.load();
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger('info', sink);
  const events = new DeskEvents(logger);
  const commits: DeskCommit[] = [];
  events.subscribe((commit) => commits.push(commit));
  const engines = new EngineHost(registry);
  const trading = await TradingDesk.open(registry, engines, store, clock, logger, events, {
    confirmCancels: options.confirmCancels ?? false,
    ...(options.shard === undefined ? {} : { shard: options.shard }),
  });
  return {
    store,
    clock,
    trading,
    books: trading.books,
    sequencer: trading.sequencer,
    checks: trading.checks,
    engines,
    pools: trading.pools,
    commits,
    logs: () => lines.join(''),
    nonces: (account, count, bookId = 1) =>
      store.nonces.issue(account, Array<number>(count).fill(bookId), 0n, clock.now() + 86_400_000),
    close: async () => {
      // A test may have closed the store already, to make a commit fail.
      await Promise.resolve()
        .then(() => store.close())
        .catch(() => {});
      data.remove();
    },
  };
}

let hashes = 0;

/**
 * A limit order of book 1 (WHBAR/USDC, price in ticks of 0.00001 USDC, size in steps of 0.1 WHBAR)
 * as the intake hands it to the desk; the signature is not checked past the intake.
 */
export function limitCandidate(
  account: string,
  side: Side,
  price: number | bigint,
  quantitySteps: number,
  nonce: bigint,
  extra: { index?: number; deadlineMs?: number; ocoWith?: number | null; inputAmount?: bigint; useAmm?: boolean } = {},
): OrderCandidate {
  const deadline = Math.floor((extra.deadlineMs ?? Date.UTC(2027, 0, 1)) / 1000);
  const priceTicks = BigInt(price);
  const base = BigInt(quantitySteps) * 10_000_000n;
  const quote = BigInt(quantitySteps) * priceTicks;
  const [input, output] =
    side === BUY ? [DEVNET_ADDRESS.USDC, DEVNET_ADDRESS.WHBAR] : [DEVNET_ADDRESS.WHBAR, DEVNET_ADDRESS.USDC];
  const inputAmount = extra.inputAmount ?? (side === BUY ? quote : base);
  const swapper = `0x${account.replace(/\D/g, '').padStart(40, '0')}`;
  const wire = toWireOrder({
    info: {
      reactor: `0x${'1'.repeat(40)}`,
      swapper,
      nonce,
      deadline: BigInt(deadline),
      additionalValidationContract: `0x${'0'.repeat(40)}`,
      additionalValidationData: '0x',
    },
    input: { token: input.toLowerCase(), amount: inputAmount },
    output: { token: output.toLowerCase(), amount: side === BUY ? base : quote, recipient: swapper },
    makerOnly: false,
    takerOnce: false,
    maxTakerFeePips: 10_000,
    maxMakerFeePips: 10_000,
  } as Parameters<typeof toWireOrder>[0]);
  return {
    index: extra.index ?? 0,
    fields: {
      orderHash: `0x${(++hashes).toString(16).padStart(64, '0')}`,
      account,
      bookId: 1,
      type: 'LIMIT',
      side: side === BUY ? 'buy' : 'sell',
      priceTicks,
      nonce,
      deadline,
      signedOrder: JSON.stringify(wire),
      signature: `0x00${'ab'.repeat(65)}`,
      useAmm: extra.useAmm ?? false,
      selfTradePrevention: 'EXPIRE_MAKER',
    },
    terms: { kind: 'sized', side, priceTicks, quantitySteps },
    signed: {
      swapper,
      makerOnly: false,
      takerOnce: false,
      inputToken: input.toLowerCase(),
      inputAmount,
      outputAmount: side === BUY ? base : quote,
    },
    ocoWith: extra.ocoWith ?? null,
  };
}
