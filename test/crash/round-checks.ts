import { join } from 'node:path';
import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { getOrderPages, type OrderListItem } from '@dex/sdk';
import { createPublicClient, getAddress, http, parseEventLogs } from 'viem';
import { openDatabase, type SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';
import { type ChainRecordFindings, checkChainRecords } from './chain-records.js';
import type { ServiceUnderTest } from './service-under-test.js';
import type { Wallet } from './trading-load.js';

/** What one look at the service and its chain found; every count but `reverted` and `trades` is a fault. */
export interface RoundFindings extends ChainRecordFindings {
  readonly trades: number;
  /** Of the trades, swaps of opted-in takers with book 1's pool. */
  readonly swaps: number;
  /** Acknowledged orders the API does not have, or has under another hash. */
  readonly lost: number;
  readonly inconsistent: number;
  /** Fills with more than one `Filled` event on the chain. */
  readonly doubleSettled: number;
  /** Fills neither settled nor failed. */
  readonly stalled: number;
  /** Fills the reactor refused, undone visibly (FILL_REVERTED). */
  readonly reverted: number;
  /** Settled fills whose chain record differs (no event, another transaction, a reverted fill on the chain). */
  readonly settlementMismatches: number;
  readonly cancelsNotFinal: number;
  readonly floorsNotOnChain: number;
  readonly tradedBelowFloor: number;
  readonly depthMismatch: boolean;
  readonly problems: readonly string[];
}

/** Everything still on its way to the chain: fills to settle, cancellations to confirm, floors to raise. */
export async function backlog(service: ServiceUnderTest, wallets: readonly Wallet[]): Promise<number> {
  const db = await openDatabase(join(service.dataDir, 'devnet.sqlite'));
  try {
    const count = (sql: string) => Number((db.prepare<{ n: number }>(sql).get() as { n: number }).n);
    const fills = count("SELECT count(*) AS n FROM settlements WHERE status IN ('pending', 'submitted')");
    const cancels = count('SELECT count(*) AS n FROM order_cancellations WHERE finalized_at IS NULL');
    const floors = (await floorsShort(service, db, wallets)).length;
    return fills + cancels + floors;
  } finally {
    db.close();
  }
}

/** Reads of the service's reactor and its chain. */
export type ReactorReads = ReturnType<typeof reactorReads>;

function reactorReads(service: ServiceUnderTest) {
  const { rpcUrl, reactor } = service.chain();
  const client = createPublicClient({ transport: http(rpcUrl, { retryCount: 0 }) });
  const address = getAddress(reactor);
  const abi = PartialFillLimitOrderReactor.abi;
  return {
    client,
    address,
    nonceFloor: (swapper: string) =>
      client.readContract({ address, abi, functionName: 'nonceFloor', args: [getAddress(swapper)] }) as Promise<bigint>,
    cancelled: (swapper: string, hash: string) =>
      client.readContract({
        address,
        abi,
        functionName: 'cancelled',
        args: [getAddress(swapper), hash as `0x${string}`],
      }) as Promise<boolean>,
    isFillSettled: (fillId: number) =>
      client.readContract({ address, abi, functionName: 'isFillSettled', args: [BigInt(fillId)] }) as Promise<boolean>,
  };
}

/**
 * Wallets whose acknowledged floor the reactor does not hold (yet) though it voids one of their
 * orders. A floor above every order the store holds of the account voids nothing the operator could
 * settle, as the service refuses any later order below it: answered before the account had an order
 * (a wallet's first cancel/all), it is recorded with nothing to send, and never reaches the chain.
 */
async function floorsShort(service: ServiceUnderTest, db: SqlDatabase, wallets: readonly Wallet[]): Promise<Wallet[]> {
  const reads = reactorReads(service);
  const nonces = db.prepare<{ nonce: string }>('SELECT nonce FROM orders WHERE account = ?');
  const short: Wallet[] = [];
  for (const wallet of wallets) {
    const floor = wallet.highestFloor();
    const voidsAnOrder = nonces.all(wallet.account.accountId).some(({ nonce }) => BigInt(nonce) < floor);
    if (voidsAnOrder && (await reads.nonceFloor(wallet.swapper)) < floor) short.push(wallet);
  }
  return short;
}

async function listing(wallet: Wallet): Promise<Map<number, OrderListItem>> {
  const orders = new Map<number, OrderListItem>();
  for await (const { page } of getOrderPages(wallet.client)) for (const order of page.orders) orders.set(Number(order.id), order);
  return orders;
}

/** A display decimal as an integer of 10^-8 units, for comparing sizes. */
function units(text: string): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, '0').slice(0, 8));
}

interface SettlementRow {
  trade_id: number;
  maker_order_id: number | null;
  status: string;
  tx_hash: string | null;
  reason: string | null;
}

/**
 * Checks, through the API and the chain (and the store file for the settlement states and trade
 * times it does not publish): every acknowledged order present and consistent; every fill settled
 * exactly once (its one `Filled` or `PoolFilled` event in the transaction the store names) or visibly reverted;
 * every acknowledged cancel final here and on the chain; every acknowledged floor that voids an
 * order on the chain; no order below an acknowledged floor traded after the floor was answered;
 * depth equal to the open orders; and every record naming a transaction naming one that holds it
 * ({@link checkChainRecords}).
 */
export async function checkRound(service: ServiceUnderTest, wallets: readonly Wallet[]): Promise<RoundFindings> {
  const problems: string[] = [];
  const reads = reactorReads(service);
  const listings = new Map<Wallet, Map<number, OrderListItem>>();
  for (const wallet of wallets) listings.set(wallet, await listing(wallet));

  let lost = 0;
  let inconsistent = 0;
  for (const wallet of wallets) {
    const listed = listings.get(wallet) as Map<number, OrderListItem>;
    for (const order of wallet.orders.values()) {
      const item = listed.get(order.id);
      if (item === undefined || item.orderHash.toLowerCase() !== order.hash) {
        lost++;
        problems.push(
          `order ${order.id} of ${wallet.account.accountId} acknowledged, ${item === undefined ? 'missing' : 'another hash'}`,
        );
        continue;
      }
      const filled = units(item.filledAmount);
      const size = units(item.amount);
      const fine =
        (item.status === 'ACTIVE' && filled === 0n) ||
        (item.status === 'PARTIALLY_FILLED' && filled > 0n && filled < size) ||
        (item.status === 'FILLED' && filled === size) ||
        (['CANCELED', 'EXPIRED', 'REJECTED'].includes(item.status) && filled <= size);
      if (!fine) {
        inconsistent++;
        problems.push(`order ${order.id}: ${item.status} with ${item.filledAmount} of ${item.amount} filled`);
      }
    }
  }

  const db = await openDatabase(join(service.dataDir, 'devnet.sqlite'));
  try {
    const settlement = await checkSettlements(db, reads, problems);
    const cancelsNotFinal = await checkCancels(wallets, listings, reads, problems);
    const floorsNotOnChain = (await floorsShort(service, db, wallets)).length;
    if (floorsNotOnChain > 0) problems.push(`${floorsNotOnChain} acknowledged floors not on the chain`);
    const tradedBelowFloor = checkBelowFloor(db, wallets, problems);
    const depthMismatch = await checkDepth(service, listings, problems);
    const records = await checkChainRecords(db, reads, wallets, problems);
    return {
      lost,
      inconsistent,
      ...settlement,
      cancelsNotFinal,
      floorsNotOnChain,
      tradedBelowFloor,
      depthMismatch,
      ...records,
      problems,
    };
  } finally {
    db.close();
  }
}

async function checkSettlements(db: SqlDatabase, reads: ReactorReads, problems: string[]) {
  const rows = db.prepare<SettlementRow>('SELECT trade_id, maker_order_id, status, tx_hash, reason FROM settlements').all();
  const logs = await reads.client.getLogs({ address: reads.address, fromBlock: 0n });
  const events = new Map<number, string[]>();
  // A swap with book 1's pool settles with PoolFilled, a fill between two orders with Filled.
  for (const event of parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs, eventName: ['Filled', 'PoolFilled'] })) {
    const id = Number(event.args.fillId);
    events.set(id, [...(events.get(id) ?? []), event.transactionHash]);
  }
  let doubleSettled = 0;
  let stalled = 0;
  let reverted = 0;
  let settlementMismatches = 0;
  const known = new Set<number>();
  for (const row of rows) {
    known.add(row.trade_id);
    const onChain = events.get(row.trade_id) ?? [];
    if (onChain.length > 1) {
      doubleSettled++;
      problems.push(`fill ${row.trade_id} settled ${onChain.length} times`);
    }
    if (row.status === 'pending' || row.status === 'submitted') {
      stalled++;
      problems.push(`fill ${row.trade_id} still ${row.status}`);
    } else if (row.status === 'failed') {
      reverted++;
      if (onChain.length > 0) {
        settlementMismatches++;
        problems.push(`fill ${row.trade_id} reverted here but settled on the chain`);
      }
    } else if (row.reason === 'NO_EVENT') {
      // Counted by checkChainRecords as settled without a transaction.
      if (onChain.length > 0 || !(await reads.isFillSettled(row.trade_id))) {
        settlementMismatches++;
        problems.push(`fill ${row.trade_id} recorded settled without an event, but the chain disagrees`);
      }
    } else if (onChain.length !== 1 || onChain[0] !== row.tx_hash) {
      settlementMismatches++;
      problems.push(`fill ${row.trade_id} settled in ${row.tx_hash}, the chain has [${onChain.join(', ')}]`);
    }
  }
  for (const id of events.keys()) {
    if (!known.has(id)) {
      settlementMismatches++;
      problems.push(`the chain settled fill ${id}, which the store does not know`);
    }
  }
  const swaps = rows.filter((row) => row.maker_order_id === null).length;
  return { trades: rows.length, swaps, doubleSettled, stalled, reverted, settlementMismatches };
}

async function checkCancels(
  wallets: readonly Wallet[],
  listings: ReadonlyMap<Wallet, ReadonlyMap<number, OrderListItem>>,
  reads: ReactorReads,
  problems: string[],
): Promise<number> {
  let notFinal = 0;
  for (const wallet of wallets) {
    const floor = await reads.nonceFloor(wallet.swapper);
    for (const id of wallet.cancels.keys()) {
      const order = wallet.orders.get(id);
      const item = listings.get(wallet)?.get(id);
      if (order === undefined || item === undefined) continue; // counted as lost
      const voided = order.nonce < floor || (await reads.cancelled(wallet.swapper, order.hash));
      if (item.status !== 'CANCELED' || !voided) {
        notFinal++;
        problems.push(`cancel of order ${id} acknowledged: ${item.status} here, ${voided ? 'void' : 'still valid'} on the chain`);
      }
    }
  }
  return notFinal;
}

function checkBelowFloor(db: SqlDatabase, wallets: readonly Wallet[], problems: string[]): number {
  const fillsOf = db.prepare<{ trade_id: number; executed_at: number; nonce: string }>(
    `SELECT t.id AS trade_id, t.executed_at, o.nonce FROM trades t JOIN orders o ON o.id IN (t.maker_order_id, t.taker_order_id)
     WHERE o.account = ? AND t.reverted_at IS NULL`,
  );
  let below = 0;
  for (const wallet of wallets) {
    const fills = fillsOf.all(wallet.account.accountId);
    for (const { floor, answeredAt } of wallet.floors) {
      for (const fill of fills) {
        if (fill.executed_at > answeredAt && BigInt(fill.nonce) < floor) {
          below++;
          problems.push(`fill ${fill.trade_id} of an order below floor ${floor}, matched after the floor was answered`);
        }
      }
    }
  }
  return below;
}

async function checkDepth(
  service: ServiceUnderTest,
  listings: ReadonlyMap<Wallet, ReadonlyMap<number, OrderListItem>>,
  problems: string[],
): Promise<boolean> {
  const depth = (await (await fetch(`${service.url}/depth/1`)).json()) as { bids: [string, string][]; asks: [string, string][] };
  const fromOrders = { bids: new Map<bigint, bigint>(), asks: new Map<bigint, bigint>() };
  for (const orders of listings.values()) {
    for (const order of orders.values()) {
      if (order.orderbookId !== '1' || order.type !== 'LIMIT' || !['ACTIVE', 'PARTIALLY_FILLED'].includes(order.status)) continue;
      const side = order.direction === 'buy' ? fromOrders.bids : fromOrders.asks;
      const price = units(order.price);
      side.set(price, (side.get(price) ?? 0n) + units(order.amount) - units(order.filledAmount));
    }
  }
  const served = (levels: [string, string][]) => new Map(levels.map(([price, size]) => [units(price), units(size)]));
  const same = (a: Map<bigint, bigint>, b: Map<bigint, bigint>) =>
    a.size === b.size && [...a].every(([price, size]) => b.get(price) === size);
  const equal = same(served(depth.bids), fromOrders.bids) && same(served(depth.asks), fromOrders.asks);
  if (!equal) problems.push('GET /depth/1 differs from the open orders');
  return !equal;
}
