/**
 * The book bench:rest reads: resting orders on book 1, one per price level, laid by a seller and a
 * buyer account (funded on the devnet chain) a few at a time, so the book can grow from a small
 * ladder like the devnet bot's to a deep one between measurements.
 */
import { type Account, createAccounts, login } from './accounts.js';
import { BENCH_BOOK, type Market } from './market.js';
import { ask } from './server-process.js';
import { type Batch, saveAll, signBatches } from './settlement-orders.js';
import type { Server } from './settlement-server.js';

/** Whole tokens each account gets: far more than its orders reserve. */
const FUNDING_UNITS = 1_000_000n;
/** Ticks between two levels of a side: 0.0001 on the bench book, as a ladder a tenth of the bot's gap. */
const LEVEL_GAP_TICKS = 10;

export class RestingLadder {
  private levels = 0;

  private constructor(
    private readonly server: Server,
    private readonly market: Market,
    private readonly seller: Account,
    private readonly buyer: Account,
  ) {}

  /** A seller and a buyer, registered, logged in and funded with the book's two tokens. */
  static async open(server: Server, market: Market): Promise<RestingLadder> {
    const accounts: Account[] = [];
    // One after the other: the server keeps only a few open login challenges per client address.
    for (const account of await createAccounts(server, 2)) accounts.push(await login(server.client, account));
    const [seller, buyer] = [accounts.find((a) => a.role === 'seller'), accounts.find((a) => a.role === 'buyer')];
    if (seller === undefined || buyer === undefined) throw new Error('the benchmark needs a seller and a buyer');
    const tokens = [
      { token: market.base, amount: (FUNDING_UNITS * 10n ** BigInt(market.baseDecimals)).toString() },
      { token: market.quote, amount: (FUNDING_UNITS * 10n ** BigInt(market.quoteDecimals)).toString() },
    ];
    await ask(server, { type: 'fund', accounts: accounts.map((account) => account.evmAddress), tokens }, 'funded');
    return new RestingLadder(server, market, seller, buyer);
  }

  /** Price levels on each side so far. */
  get depth(): number {
    return this.levels;
  }

  /** Rests one order on each of the next price levels of both sides until each side has `levels`. */
  async growTo(levels: number, problems: string[]): Promise<void> {
    const batches: Batch[] = [];
    for (let level = this.levels; level < levels; level++) {
      const prices = {
        askTicks: BENCH_BOOK.askTicks + level * LEVEL_GAP_TICKS,
        bidTicks: BENCH_BOOK.bidTicks - level * LEVEL_GAP_TICKS,
      };
      for (const trader of [this.seller, this.buyer])
        batches.push({ trader, taker: false, size: 1, prices, amm: false, body: '' });
    }
    await signBatches(this.server.client, this.market, batches);
    await saveAll(this.server.client, batches, problems);
    this.levels = Math.max(this.levels, levels);
  }
}
