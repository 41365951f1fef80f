import { PartialFillLimitOrderReactor } from '@dex/contracts';
import { type Hex, type Log, parseEventLogs, TransactionReceiptNotFoundError } from 'viem';
import type { SqlDatabase } from '../../packages/server/src/adapters/sqlite/driver.js';
import type { ReactorReads } from './round-checks.js';
import type { Wallet } from './trading-load.js';

/** What the chain-record checks found; every count is a fault. */
export interface ChainRecordFindings {
  /** Records (tape, order history, settlements) naming a transaction that does not hold what they say it does. */
  readonly staleRecords: number;
  /** Trades recorded settled with no transaction named for them. */
  readonly settledWithoutTransaction: number;
  /** Acknowledged cancels with neither an `OrderCancelled` event nor a `NonceFloorRaised` above the order's nonce. */
  readonly cancelsWithoutRecord: number;
}

/** A record that names a transaction: where it is kept, and what the transaction must hold for it. */
interface NamedTransaction {
  readonly record: string;
  readonly hash: string;
  /** A fill's id: its `Filled` or `PoolFilled` event. */
  readonly tradeId: number | null;
  /** A cancelled order: its `OrderCancelled` event, or a floor above its nonce. */
  readonly order: { hash: string; swapper: string; nonce: bigint } | null;
}

interface CancelRecordRow {
  tx_hash: string;
  order_id: number;
  order_hash: string;
  nonce: string;
  signed_order: string;
}

/** Every record of the store that names a transaction, with what it says the transaction did. */
function namedTransactions(db: SqlDatabase): NamedTransaction[] {
  const fills = (record: string, query: string) =>
    db
      .prepare<{ trade_id: number; hash: string }>(query)
      .all()
      .map((row) => ({ record: `${record} of fill ${row.trade_id}`, hash: row.hash, tradeId: row.trade_id, order: null }));
  const cancels = db
    .prepare<CancelRecordRow>(
      `SELECT e.tx_hash, o.id AS order_id, o.order_hash, o.nonce, o.signed_order FROM order_events e
       JOIN orders o ON o.id = e.order_id WHERE e.type = 'CANCELED' AND e.tx_hash IS NOT NULL`,
    )
    .all()
    .map((row) => ({
      record: `CANCELED history event of order ${row.order_id}`,
      hash: row.tx_hash,
      tradeId: null,
      order: {
        hash: row.order_hash.toLowerCase(),
        swapper: (JSON.parse(row.signed_order) as { info: { swapper: string } }).info.swapper.toLowerCase(),
        nonce: BigInt(row.nonce),
      },
    }));
  return [
    ...fills('tape entry', 'SELECT id AS trade_id, transaction_hash AS hash FROM trades WHERE transaction_hash IS NOT NULL'),
    ...fills(
      'history event',
      'SELECT trade_id, tx_hash AS hash FROM order_events WHERE trade_id IS NOT NULL AND tx_hash IS NOT NULL',
    ),
    ...fills('settlement', "SELECT trade_id, tx_hash AS hash FROM settlements WHERE status = 'settled' AND tx_hash IS NOT NULL"),
    ...cancels,
  ];
}

type ReactorEvent = ReturnType<typeof parseEventLogs<typeof PartialFillLimitOrderReactor.abi>>[number];

/** Whether the transaction's reactor events hold what the record says it did. */
function holds(events: readonly ReactorEvent[], named: NamedTransaction): boolean {
  const { tradeId, order } = named;
  return events.some((event) => {
    if ((event.eventName === 'Filled' || event.eventName === 'PoolFilled') && tradeId !== null)
      return Number(event.args.fillId) === tradeId;
    if (event.eventName === 'OrderCancelled' && order !== null) return event.args.orderHash.toLowerCase() === order.hash;
    if (event.eventName === 'NonceFloorRaised' && order !== null)
      return event.args.swapper.toLowerCase() === order.swapper && event.args.nonceFloor > order.nonce;
    return false;
  });
}

/**
 * (a) every record that names a transaction names one whose receipt the chain has and whose
 * reactor events hold that fill or that cancel; (b) every trade recorded settled names a
 * transaction (settlement and tape); (c) every acknowledged cancel has an `OrderCancelled` event on
 * the chain, or a `NonceFloorRaised` above the order's nonce. The node keeps every block's receipts
 * in these rounds: a missing one was lost, not pruned.
 */
export async function checkChainRecords(
  db: SqlDatabase,
  reads: ReactorReads,
  wallets: readonly Wallet[],
  problems: string[],
): Promise<ChainRecordFindings> {
  const reactor = reads.address.toLowerCase();
  const receipts = new Map<string, ReactorEvent[] | null>();
  let staleRecords = 0;
  for (const named of namedTransactions(db)) {
    if (!receipts.has(named.hash)) receipts.set(named.hash, await reactorEventsOf(reads, named.hash, reactor));
    const events = receipts.get(named.hash) ?? null;
    if (events === null || !holds(events, named)) {
      staleRecords++;
      problems.push(
        `${named.record} names ${named.hash}, ${events === null ? 'which the chain does not have' : 'which does not hold it'}`,
      );
    }
  }

  const unnamed = db
    .prepare<{ trade_id: number; tx_hash: string | null; transaction_hash: string | null }>(
      `SELECT s.trade_id, s.tx_hash, t.transaction_hash FROM settlements s JOIN trades t ON t.id = s.trade_id
       WHERE s.status = 'settled' AND (s.tx_hash IS NULL OR t.transaction_hash IS NULL)`,
    )
    .all();
  for (const row of unnamed)
    problems.push(
      `fill ${row.trade_id} recorded settled without a transaction (settlement ${row.tx_hash}, tape ${row.transaction_hash})`,
    );

  const logs = await reads.client.getLogs({ address: reads.address, fromBlock: 0n });
  const cancelsWithoutRecord = countCancelsWithoutRecord(logs, wallets, problems);
  return { staleRecords, settledWithoutTransaction: unnamed.length, cancelsWithoutRecord };
}

/** The reactor's events in the transaction's receipt; null when the chain has no (successful) receipt. */
async function reactorEventsOf(reads: ReactorReads, hash: string, reactor: string): Promise<ReactorEvent[] | null> {
  const receipt = await reads.client.getTransactionReceipt({ hash: hash as Hex }).catch((error: unknown) => {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  });
  if (receipt === null || receipt.status !== 'success') return null;
  return parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs }).filter(
    (event) => event.address.toLowerCase() === reactor,
  );
}

function countCancelsWithoutRecord(logs: Log[], wallets: readonly Wallet[], problems: string[]): number {
  const events = parseEventLogs({
    abi: PartialFillLimitOrderReactor.abi,
    logs,
    eventName: ['OrderCancelled', 'NonceFloorRaised'],
  });
  const cancelled = new Set<string>();
  const floors = new Map<string, bigint>();
  for (const event of events) {
    if (event.eventName === 'OrderCancelled') cancelled.add(event.args.orderHash.toLowerCase());
    else {
      const swapper = event.args.swapper.toLowerCase();
      if (event.args.nonceFloor > (floors.get(swapper) ?? 0n)) floors.set(swapper, event.args.nonceFloor);
    }
  }
  let without = 0;
  for (const wallet of wallets) {
    const floor = floors.get(wallet.swapper) ?? 0n;
    for (const id of wallet.cancels.keys()) {
      const order = wallet.orders.get(id);
      if (order === undefined || cancelled.has(order.hash) || order.nonce < floor) continue;
      without++;
      problems.push(
        `cancel of order ${id} acknowledged: no OrderCancelled event and no floor above nonce ${order.nonce} on the chain`,
      );
    }
  }
  return without;
}
