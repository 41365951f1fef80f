import { existsSync, renameSync, statSync } from 'node:fs';
import { copyFileAtomic, copyFileAtomicIf } from './atomic-file.js';
import { checkDump, checkDumpAsync, type DumpVerdict } from './devnet-dump.js';

/** Where the devnet node reports what happened to its state (pino's and the server's logger fit). */
export interface DevnetLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** The last good snapshot of a state file: `chain-state.json` -> `chain-state.good.json`. */
export function goodStateFile(stateFile: string): string {
  return `${stateFile.replace(/\.json$/, '')}.good.json`;
}

const good = (verdict: DumpVerdict): boolean => verdict.whole && verdict.ahead.length === 0;

/**
 * Copies the node's state file beside it as the last good snapshot (temp file and rename), if it
 * holds a whole dump whose state is not ahead of its saved history: one the node is writing right
 * now is cut short, or changes while it is copied, and one it wrote while mining a block holds that
 * block's effects without the block (see devnet-dump.ts); either is skipped. Reads and checks in
 * chunks off the event loop's critical path: the file can be hundreds of MB, and a parse of it
 * blocked the service for seconds. Returns whether it copied.
 */
export async function keepGoodState(stateFile: string, log?: DevnetLog): Promise<boolean> {
  const before = statSync(stateFile, { throwIfNoEntry: false });
  if (before === undefined) return false;
  const unchanged = (): boolean => {
    const after = statSync(stateFile, { throwIfNoEntry: false });
    return after?.mtimeMs === before.mtimeMs && after.size === before.size;
  };
  try {
    return await copyFileAtomicIf(stateFile, goodStateFile(stateFile), async (copy) => {
      if (!unchanged()) return false;
      const verdict = await checkDumpAsync(copy);
      if (verdict.ahead.length > 0)
        log?.info(
          { ahead: verdict.ahead },
          `kept the previous snapshot of the devnet chain: its state file holds state ahead of its saved blocks ` +
            `(${verdict.ahead.join('; ')}); the next round tries again`,
        );
      return good(verdict);
    });
  } catch {
    return false; // gone or unreadable meanwhile: the next round tries again
  }
}

function describe(file: string): { file: string; bytes: number; modified: string } | null {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? null : { file, bytes: stat.size, modified: stat.mtime.toISOString() };
}

/**
 * How the state a node is about to load was found: none, good, replaced by the last good snapshot,
 * none left (a fresh chain), or ahead of its history and kept for want of a good snapshot.
 */
export type StateCheck = 'none' | 'whole' | 'restored' | 'fresh' | 'ahead';

/** The state a node is about to load: how it was found, and the head of its chain (0 for a new chain). */
export interface StateFound {
  readonly check: StateCheck;
  readonly head: bigint;
}

/**
 * Makes sure the node will load only a whole state dump whose state is not ahead of its saved
 * history. Such a file is kept as the last good snapshot. A damaged one (a crash while the node
 * wrote it) or one ahead of its history (written while the node mined a block: the chain would
 * have that block's effects but no block or transaction for them, so no record of them could be
 * checked against the chain) is renamed aside for inspection and replaced by the last good
 * snapshot, with a warning naming what was lost. With no good snapshot, a file ahead of its
 * history is loaded as it is, and a damaged one gives way to a fresh chain, both logged as errors.
 */
export function checkStateFile(stateFile: string, log?: DevnetLog): StateFound {
  if (!existsSync(stateFile)) return { check: 'none', head: 0n };
  const found = checkDump(stateFile);
  if (good(found)) {
    copyFileAtomic(stateFile, goodStateFile(stateFile));
    return { check: 'whole', head: found.head ?? 0n };
  }
  const file = describe(stateFile);
  const snapshot = goodStateFile(stateFile);
  const fallback = checkDump(snapshot);
  // A snapshot from before snapshots were checked may be ahead too: still better than no chain.
  const restorable = found.whole ? good(fallback) : fallback.whole;
  const what = found.whole
    ? `holds state ahead of its saved blocks (${found.ahead.join('; ')})`
    : `was cut short (${file?.bytes} bytes, written ${file?.modified})`;
  if (found.whole && !restorable) {
    log?.error(
      { ahead: found.ahead, file },
      `the devnet chain's state file ${what} and there is no good snapshot: loading it as it is. ` +
        'What the chain did in its last block has no transaction on the chain',
    );
    return { check: 'ahead', head: found.head ?? 0n };
  }
  const kind = found.whole ? 'ahead' : 'damaged';
  const aside = `${stateFile.replace(/\.json$/, '')}.${kind}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  const kept = { ...file, file: aside };
  renameSync(stateFile, aside);
  if (restorable) {
    copyFileAtomic(snapshot, stateFile);
    const restored = describe(snapshot);
    log?.warn(
      { [kind]: kept, ...(found.whole ? { ahead: found.ahead } : {}), restored },
      `the devnet chain's state file ${what}; restored the last good snapshot of ${restored?.modified}: what the ` +
        `chain did after it is lost, and the settler requeues the fills whose blocks are gone. The file is kept as ${aside}`,
    );
    return { check: 'restored', head: fallback.head ?? 0n };
  }
  log?.error(
    { damaged: kept },
    `the devnet chain's state file ${what} and there is no good snapshot: starting a FRESH chain. ` +
      `Every settlement on the old chain is gone; the settler requeues the fills whose blocks the chain lost. ` +
      `The damaged file is kept as ${aside}`,
  );
  return { check: 'fresh', head: 0n };
}
