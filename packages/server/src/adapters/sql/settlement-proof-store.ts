import type { ProofLog, SettlementProofStore } from '../../ports/store/settlement-proof-ports.js';
import { insertRowsText, type JsonRow, writeRows } from './json-rows.js';
import { type JsonColumn, type SqlClient, selectList, sql } from './sql-client.js';

const COLUMNS: readonly JsonColumn[] = [
  ['tx_hash', 'text'],
  ['log_index', 'integer'],
  ['block_number', 'integer'],
  ['block_hash', 'text'],
  ['transaction_index', 'integer'],
  ['topics', 'text'],
  ['data', 'text'],
];

interface ProofRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  transaction_index: number;
  topics: string;
  data: string;
}

const rowOf = (log: ProofLog): JsonRow => [
  log.txHash.toLowerCase(),
  log.logIndex,
  log.blockNumber.toString(),
  log.blockHash,
  log.transactionIndex,
  JSON.stringify(log.topics),
  log.data,
];

const logOf = (row: ProofRow): ProofLog => ({
  txHash: row.tx_hash,
  logIndex: Number(row.log_index),
  blockNumber: BigInt(row.block_number),
  blockHash: row.block_hash,
  transactionIndex: Number(row.transaction_index),
  topics: JSON.parse(row.topics) as string[],
  data: row.data,
});

/** The reactor's settlement events, one row per log, keyed by transaction and log index. */
export function sqlSettlementProofStore(db: SqlClient): SettlementProofStore {
  const statements = {
    // `WHERE true` tells SQLite's parser the ON CONFLICT is the insert's, not a join's.
    record: sql(
      `${insertRowsText(db.dialect, 'settlement_logs', COLUMNS)} WHERE true ON CONFLICT (tx_hash, log_index) DO NOTHING`,
    ),
    ofTransaction: sql<ProofRow>(
      `SELECT ${selectList(
        COLUMNS.map(([name]) => name),
        ['block_number'],
      )} FROM settlement_logs WHERE tx_hash = ? ORDER BY log_index`,
    ),
    forgetAfter: sql('DELETE FROM settlement_logs WHERE block_number > ?'),
  };
  return {
    async record(logs) {
      // Not waiting for the disk (an fsync that would hold up every request on this event loop):
      // what refers to these logs (fills marked settled, a confirmed cancel, the indexer's
      // cursor) is written durably after them, which makes them durable too (the log is written
      // in order); a crash of the machine before that loses them with what would have referred to them.
      await db.relaxedTransaction((tx) => writeRows(tx, statements.record, logs.map(rowOf)));
    },
    async ofTransaction(txHash) {
      return (await db.all(statements.ofTransaction, txHash.toLowerCase())).map(logOf);
    },
    forgetAfter(block) {
      return db.run(statements.forgetAfter, block.toString());
    },
  };
}
