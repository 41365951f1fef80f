/**
 * bench:settlement's reading of the devnet chain after a run: the reactor's events against the
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

/** Checks on the chain that each trade was settled exactly once, by the transaction the store names. */
export async function checkChain(rpcUrl: string, reactor: Address, db: SqlDatabase, problems: string[]): Promise<ChainCheck> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const abi = PartialFillLimitOrderReactor.abi;
  const head = await client.getBlockNumber();
  const filled: Logged[] = [];
  const pooled: Logged[] = [];
  const rejected = new Map<string, number>();
  const poolMoved = new Set<number>();
  const logged =
    (pool: boolean) =>
    (event: { args: { fillId?: bigint | undefined }; transactionHash: Hash; blockNumber: bigint; logIndex: number }): Logged => ({
      fillId: Number(event.args.fillId),
      hash: event.transactionHash,
      block: event.blockNumber,
      index: event.logIndex,
      pool,
    });
  // viem refuses answers over 10 MB; a block of a hundred Filled events is about 100 kB of JSON.
  for (let from = 0n; from <= head; from += LOG_BLOCKS) {
    const range = {
      address: reactor,
      abi,
      fromBlock: from,
      toBlock: from + LOG_BLOCKS - 1n < head ? from + LOG_BLOCKS - 1n : head,
    };
    filled.push(...(await client.getContractEvents({ ...range, eventName: 'Filled' })).map(logged(false)));
    pooled.push(...(await client.getContractEvents({ ...range, eventName: 'PoolFilled' })).map(logged(true)));
    for (const event of await client.getContractEvents({ ...range, eventName: 'FillRejected' })) {
      const reason = rejectReason(Number(event.args.reason));
      if (reason === 'PoolMoved') poolMoved.add(Number(event.args.fillId));
      else rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
    }
  }
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
  expect(filled, false, 'Filled');
  expect(pooled, true, 'PoolFilled');
  for (const [reason, times] of rejected) problems.push(`${times} FillRejected events (${reason})`);
  return { costs: await costsOf(client, [...filled, ...pooled]), poolMoved };
}

/** Each settlement transaction's receipt and calldata, in chain order (so an order is new in the first that carries it). */
async function costsOf(client: ReturnType<typeof createPublicClient>, events: readonly Logged[]): Promise<Map<Hash, TxCost>> {
  const sorted = [...events].sort((a, b) => (a.block === b.block ? a.index - b.index : a.block < b.block ? -1 : 1));
  const counts = new Map<Hash, { book: number; pool: number }>();
  for (const event of sorted) {
    const count = counts.get(event.hash) ?? { book: 0, pool: 0 };
    if (event.pool) count.pool++;
    else count.book++;
    counts.set(event.hash, count);
  }
  const seen = new Set<string>();
  const costs = new Map<Hash, TxCost>();
  for (const [hash, count] of counts) {
    const [receipt, sent] = await Promise.all([client.getTransactionReceipt({ hash }), client.getTransaction({ hash })]);
    const { args } = decodeFunctionData({ abi: PartialFillLimitOrderReactor.abi, data: sent.input });
    const orders = (args?.[0] ?? []) as readonly { signature: string }[];
    let newEd25519 = 0;
    for (const { signature } of orders) {
      if (seen.has(signature)) continue;
      seen.add(signature);
      if (signature.length === ED25519_SIGNATURE_HEX) newEd25519++;
    }
    costs.set(hash, {
      gas: receipt.gasUsed,
      bytes: (sent.input.length - 2) / 2,
      bookFills: count.book,
      poolFills: count.pool,
      newEd25519,
    });
  }
  return costs;
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
