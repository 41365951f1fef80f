import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

/** The parts of anvil's state dump this module reads; everything else is written back untouched. */
interface StateDump {
  blocks?: { header?: { number?: string | number } }[];
  transactions?: { block_number?: string | number }[];
}

const numberOf = (value: string | number | undefined): bigint => BigInt(value ?? 0);

/**
 * Drops from a node's state file every block but the last `keep`, with their transactions, so a
 * file the node rewrites every few seconds stays the size of the live state instead of growing
 * with the whole history. The accounts and their storage, which are the chain's state, stay whole;
 * the head block and its hash are unchanged, so the chain the node loads is the same chain with a
 * shorter memory. Returns how many blocks were dropped.
 */
export function trimHistory(stateFile: string, keep: number): number {
  const dump = JSON.parse(readFileSync(stateFile, 'utf8')) as StateDump;
  const blocks = dump.blocks ?? [];
  if (blocks.length <= keep) return 0;
  const head = blocks.reduce((top, block) => {
    const number = numberOf(block.header?.number);
    return number > top ? number : top;
  }, 0n);
  const oldest = head - BigInt(keep) + 1n;
  dump.blocks = blocks.filter((block) => numberOf(block.header?.number) >= oldest);
  dump.transactions = (dump.transactions ?? []).filter((transaction) => numberOf(transaction.block_number) >= oldest);
  writeFileAtomic(stateFile, JSON.stringify(dump));
  return blocks.length - dump.blocks.length;
}
