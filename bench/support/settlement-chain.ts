/**
 * bench:settlement's reading of the devnet chain during a run: the reactor's events against the
 * store (each trade settled exactly once, by the transaction the store names: a `Filled` event for
 * a book fill, a `PoolFilled` for a swap with the pool), and what each settlement transaction
 * cost and carried.
 */
import { PartialFillLimitOrderReactor, rejectReason } from '@dex/contracts';
import { type Address, createPublicClient, decodeFunctionData, type Hash, http } from 'viem';
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';
import { leastSquares } from './least-squares.js';

/** Blocks per log query. */
const LOG_BLOCKS = 50n;
/** A signature of an Ed25519 account's order: the mode byte and 64 bytes (secp256k1: 65). */
const ED25519_SIGNATURE_HEX = 2 + 2 * 65;

/** What a settlement transaction cost and carried. */
export interface TxCost {
  readonly gas: bigint;
  readonly bytes: number;
  /** Its `Filled` events (book fills) and `PoolFilled` events (swaps with the pool). */
  readonly bookFills: number;
  readonly poolFills: number;
  /** Ed25519-signed orders it carried that no earlier settlement transaction did: the reactor checks their signatures (about 290k gas each). */
  readonly newEd25519: number;
}

export interface ChainCheck {
  readonly costs: Map<Hash, TxCost>;
  /** Swaps the reactor refused because the pool moved since the engine priced them (`PoolMoved`): legitimate, counted. */
  readonly poolMoved: ReadonlySet<number>;
}

interface Logged {
  readonly fillId: number;
  readonly hash: Hash;
  readonly block: bigint;
  readonly index: number;
  readonly pool: boolean;
}

/** How often the follower reads new blocks: well within the time the node keeps a block. */
const FOLLOW_MS = 1_000;

/**
 * Reads the reactor's events and each settlement transaction's receipt and calldata while the run
 * goes on, block range by block range: the devnet node keeps only its latest blocks
 * (DEVNET_CHAIN_HISTORY_BLOCKS), so what a run settled cannot all be read after it.
 */
export class ChainFollower {
  private readonly client;
  private readonly filled: Logged[] = [];
  private readonly pooled: Logged[] = [];
  private readonly rejected = new Map<string, number>();
  private readonly poolMoved = new Set<number>();
  private readonly costs = new Map<Hash, TxCost>();
  /** Signatures carried by an earlier settlement transaction (an order is new in the first). */
  private readonly seen = new Set<string>();
  private next = 0n;
  private lag = 0;
  private reading: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    rpcUrl: string,
    private readonly reactor: Address,
  ) {
    this.client = createPublicClient({ transport: http(rpcUrl) });
    this.timer = setInterval(() => this.poll(), FOLLOW_MS);
  }

  /** Most blocks the follower was behind the head when it read, printed beside the node's history. */
  get maxLag(): number {
    return this.lag;
  }

  /** Reads up to the head once more and stops; then checks that each trade was settled exactly once, by the transaction the store names. */
  async check(db: SqlDatabase, problems: string[]): Promise<ChainCheck> {
    clearInterval(this.timer);
    this.poll();
    await this.reading;
    if (this.failure !== null) throw this.failure;
    const stored = new Map(
      db
        .prepare<{ id: number; pool: number; tx: string | null }>(
          `SELECT t.id, t.maker_order_id IS NULL AS pool, s.tx_hash AS tx FROM trades t
           LEFT JOIN settlements s ON s.trade_id = t.id AND s.status = 'settled'`,
        )
        .all()
        .map((row) => [row.id, { pool: row.pool === 1, tx: row.tx }]),
    );
    const settled = [...stored.values()].filter((trade) => trade.tx !== null);
    const expect = (events: readonly Logged[], pool: boolean, name: string) => {
      const seen = new Set<number>();
      let mismatched = 0;
      for (const event of events) {
        if (seen.has(event.fillId)) problems.push(`fill ${event.fillId} has more than one ${name} event`);
        seen.add(event.fillId);
        const trade = stored.get(event.fillId);
        if (trade?.pool !== pool || trade.tx !== event.hash) mismatched++;
      }
      const trades = settled.filter((trade) => trade.pool === pool).length;
      if (events.length !== trades) problems.push(`${events.length} ${name} events on the chain for ${trades} settled trades`);
      if (mismatched > 0) problems.push(`${mismatched} ${name} events are not for a trade the store settled in that transaction`);
    };
    expect(this.filled, false, 'Filled');
    expect(this.pooled, true, 'PoolFilled');
    for (const [reason, times] of this.rejected) problems.push(`${times} FillRejected events (${reason})`);
    return { costs: this.costs, poolMoved: this.poolMoved };
  }

  /** Stops without checking (a run that failed). */
  stop(): void {
    clearInterval(this.timer);
  }

  private poll(): void {
    this.reading = this.reading.then(async () => {
      if (this.failure !== null) return;
      try {
        await this.readToHead();
      } catch (error) {
        this.failure = error;
      }
    });
  }

  private async readToHead(): Promise<void> {
    // viem caches the head for its polling interval (4 s): the last read must see the last block.
    const head = await this.client.getBlockNumber({ cacheTime: 0 });
    // viem refuses answers over 10 MB; a block of a hundred Filled events is about 100 kB of JSON.
    while (this.next <= head) {
      if (!(await this.kept(this.next)))
        throw new Error(`block ${this.next} left the node's history before it was read: raise DEVNET_CHAIN_HISTORY_BLOCKS`);
      this.lag = Math.max(this.lag, Number(head - this.next));
      const to = this.next + LOG_BLOCKS - 1n < head ? this.next + LOG_BLOCKS - 1n : head;
      const range = { address: this.reactor, abi: PartialFillLimitOrderReactor.abi, fromBlock: this.next, toBlock: to };
      const [filled, pooled, rejected] = await Promise.all([
        this.client.getContractEvents({ ...range, eventName: 'Filled' }),
        this.client.getContractEvents({ ...range, eventName: 'PoolFilled' }),
        this.client.getContractEvents({ ...range, eventName: 'FillRejected' }),
      ]);
      const events = [...filled.map(logged(false)), ...pooled.map(logged(true))];
      this.filled.push(...events.filter((event) => !event.pool));
      this.pooled.push(...events.filter((event) => event.pool));
      for (const event of rejected) {
        const reason = rejectReason(Number(event.args.reason));
        if (reason === 'PoolMoved') this.poolMoved.add(Number(event.args.fillId));
        else this.rejected.set(reason, (this.rejected.get(reason) ?? 0) + 1);
      }
      await this.readCosts(events);
      this.next = to + 1n;
    }
  }

  /**
   * Whether the node still keeps block `number`'s transactions: it drops those of old blocks (their
   * receipts and events) but keeps the blocks, so a dropped one would read as a block without events.
   */
  private async kept(number: bigint): Promise<boolean> {
    const block = await this.client.getBlock({ blockNumber: number }).catch(() => null);
    const first = block?.transactions[0];
    if (block === null || first === undefined) return block !== null;
    return (await this.client.getTransactionReceipt({ hash: first }).catch(() => null)) !== null;
  }

  /** Each new settlement transaction's receipt and calldata, in chain order (so an order is new in the first that carries it). */
  private async readCosts(events: readonly Logged[]): Promise<void> {
    const sorted = [...events].sort((a, b) => (a.block === b.block ? a.index - b.index : a.block < b.block ? -1 : 1));
    const counts = new Map<Hash, { book: number; pool: number }>();
    for (const event of sorted) {
      const count = counts.get(event.hash) ?? { book: 0, pool: 0 };
      if (event.pool) count.pool++;
      else count.book++;
      counts.set(event.hash, count);
    }
    const read = await Promise.all(
      [...counts].map(([hash, count]) =>
        Promise.all([this.client.getTransactionReceipt({ hash }), this.client.getTransaction({ hash }), hash, count] as const),
      ),
    );
    for (const [receipt, sent, hash, count] of read) {
      const { args } = decodeFunctionData({ abi: PartialFillLimitOrderReactor.abi, data: sent.input });
      const orders = (args?.[0] ?? []) as readonly { signature: string }[];
      let newEd25519 = 0;
      for (const { signature } of orders) {
        if (this.seen.has(signature)) continue;
        this.seen.add(signature);
        if (signature.length === ED25519_SIGNATURE_HEX) newEd25519++;
      }
      this.costs.set(hash, {
        gas: receipt.gasUsed,
        bytes: (sent.input.length - 2) / 2,
        bookFills: count.book,
        poolFills: count.pool,
        newEd25519,
      });
    }
  }
}

function logged(pool: boolean) {
  return (event: {
    args: { fillId?: bigint | undefined };
    transactionHash: Hash;
    blockNumber: bigint;
    logIndex: number;
  }): Logged => ({
    fillId: Number(event.args.fillId),
    hash: event.transactionHash,
    block: event.blockNumber,
    index: event.logIndex,
    pool,
  });
}

/** Gas shared among what the transactions carried, by least squares over them (undefined when they do not tell the parts apart). */
export interface GasShares {
  readonly bookFill: number;
  readonly poolFill: number;
  readonly ed25519Order: number;
  readonly transactions: number;
}

export function gasShares(costs: readonly TxCost[]): GasShares | undefined {
  const fit = leastSquares(
    costs.map((cost) => [cost.bookFills, cost.poolFills, cost.newEd25519]),
    costs.map((cost) => Number(cost.gas)),
  );
  if (fit === undefined) return undefined;
  const [bookFill, poolFill, ed25519Order] = fit as [number, number, number];
  return { bookFill, poolFill, ed25519Order, transactions: costs.length };
}
