import { existsSync, renameSync, statSync } from 'node:fs';
import { copyFileAtomic, copyFileAtomicIf } from './atomic-file.js';
import { holdsWholeObject, holdsWholeObjectAsync } from './json-object-scan.js';

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

/**
 * Copies the node's state file beside it as the last good snapshot (temp file and rename), if it
 * holds a whole dump: one the node is writing right now is cut short, or changes while it is
 * copied, and is skipped. Reads and checks in chunks off the event loop's critical path: the file
 * can be hundreds of MB, and a parse of it blocked the service for seconds. Returns whether it copied.
 */
export async function keepGoodState(stateFile: string): Promise<boolean> {
  const before = statSync(stateFile, { throwIfNoEntry: false });
  if (before === undefined) return false;
  const unchanged = (): boolean => {
    const after = statSync(stateFile, { throwIfNoEntry: false });
    return after?.mtimeMs === before.mtimeMs && after.size === before.size;
  };
  try {
    return await copyFileAtomicIf(
      stateFile,
      goodStateFile(stateFile),
      async (copy) => unchanged() && (await holdsWholeObjectAsync(copy)),
    );
  } catch {
    return false; // gone or unreadable meanwhile: the next round tries again
  }
}

function describe(file: string): { file: string; bytes: number; modified: string } | null {
  const stat = statSync(file, { throwIfNoEntry: false });
  return stat === undefined ? null : { file, bytes: stat.size, modified: stat.mtime.toISOString() };
}

/** How the state a node is about to load was found. */
export type StateCheck = 'none' | 'whole' | 'restored' | 'fresh';

/**
 * Makes sure the node will load only a whole state dump. A whole state file is kept as the last
 * good snapshot. A damaged one (a crash while the node wrote it) is renamed aside for inspection
 * and replaced by the last good snapshot, with a warning naming what was lost; with no good
 * snapshot either, the node starts a fresh chain, logged as an error.
 */
export function checkStateFile(stateFile: string, log?: DevnetLog): StateCheck {
  if (!existsSync(stateFile)) return 'none';
  if (holdsWholeObject(stateFile)) {
    copyFileAtomic(stateFile, goodStateFile(stateFile));
    return 'whole';
  }
  const damaged = describe(stateFile);
  const aside = `${stateFile.replace(/\.json$/, '')}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  renameSync(stateFile, aside);
  const good = goodStateFile(stateFile);
  if (holdsWholeObject(good)) {
    copyFileAtomic(good, stateFile);
    const snapshot = describe(good);
    log?.warn(
      { damaged: { ...damaged, file: aside }, restored: snapshot },
      `the devnet chain's state file was cut short (${damaged?.bytes} bytes, written ${damaged?.modified}); ` +
        `restored the last good snapshot of ${snapshot?.modified}: what the chain did after it is lost, and the ` +
        `settler requeues the fills whose blocks are gone. The damaged file is kept as ${aside}`,
    );
    return 'restored';
  }
  log?.error(
    { damaged: { ...damaged, file: aside } },
    `the devnet chain's state file was cut short and there is no good snapshot: starting a FRESH chain. ` +
      `Every settlement on the old chain is gone; the settler requeues the fills whose blocks the chain lost. ` +
      `The damaged file is kept as ${aside}`,
  );
  return 'fresh';
}
