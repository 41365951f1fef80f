import { readFileSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

/** The parts of anvil's state dump this module reads; everything else is written back untouched. */
interface StateDump {
  accounts?: Record<string, { storage?: Record<string, string> }>;
  blocks?: { header?: { number?: string | number } }[];
  transactions?: { block_number?: string | number }[];
}

/** What `compactState` dropped from a state file. */
export interface StateCompaction {
  /** Blocks older than the kept ones, with their transactions. */
  readonly blocks: number;
  /** Storage slots that hold zero. */
  readonly emptySlots: number;
}

const numberOf = (value: string | number | undefined): bigint => BigInt(value ?? 0);
const ZERO_WORD = /^0x0*$/;

/**
 * Rewrites a stopped node's state file without what only costs: every block but the genesis and
 * the last `keep`, with their transactions (the history, which the node would rewrite every few
 * seconds forever), and every storage slot that holds zero. Anvil keeps a slot a contract cleared as an entry, and
 * its work per block grows with the entries, so freed storage (the reactor's forgotten orders)
 * only stops costing once the entry is gone; a missing slot reads as zero, so the state is the
 * same. The head block and its hash are unchanged: the chain the node loads is the same chain with
 * a shorter memory.
 */
export function compactState(stateFile: string, keep: number): StateCompaction {
  const dump = JSON.parse(readFileSync(stateFile, 'utf8')) as StateDump;
  const emptySlots = dropEmptySlots(dump);
  const blocks = dropOldBlocks(dump, keep);
  if (blocks > 0 || emptySlots > 0) writeFileAtomic(stateFile, JSON.stringify(dump));
  return { blocks, emptySlots };
}

function dropEmptySlots(dump: StateDump): number {
  let dropped = 0;
  for (const account of Object.values(dump.accounts ?? {})) {
    const storage = account.storage ?? {};
    for (const [slot, value] of Object.entries(storage)) {
      if (!ZERO_WORD.test(value)) continue;
      delete storage[slot];
      dropped++;
    }
  }
  return dropped;
}

function dropOldBlocks(dump: StateDump, keep: number): number {
  const blocks = dump.blocks ?? [];
  if (blocks.length <= keep) return 0;
  const head = blocks.reduce((top, block) => {
    const number = numberOf(block.header?.number);
    return number > top ? number : top;
  }, 0n);
  const oldest = head - BigInt(keep) + 1n;
  // The genesis block stays: a node loaded without it makes a new one at its own start time, whose
  // hash differs, and a watcher of the chain would take that for a loss of every block.
  dump.blocks = blocks.filter((block) => {
    const number = numberOf(block.header?.number);
    return number >= oldest || number === 0n;
  });
  dump.transactions = (dump.transactions ?? []).filter((transaction) => numberOf(transaction.block_number) >= oldest);
  return blocks.length - dump.blocks.length;
}
