import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { writeFileAtomic } from './atomic-file.js';

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

/** The bytes of `file` if it holds a whole state dump (a JSON object), else null. */
function readWhole(file: string): Buffer | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? bytes : null;
  } catch {
    return null;
  }
}

/**
 * Copies the node's state file beside it as the last good snapshot (temp file and rename), if it
 * holds a whole dump: one the node is writing right now is cut short and skipped. Returns whether
 * it copied.
 */
export function keepGoodState(stateFile: string): boolean {
  const bytes = readWhole(stateFile);
  if (bytes === null) return false;
  writeFileAtomic(goodStateFile(stateFile), bytes);
  return true;
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
  const bytes = readWhole(stateFile);
  if (bytes !== null) {
    writeFileAtomic(goodStateFile(stateFile), bytes);
    return 'whole';
  }
  const damaged = describe(stateFile);
  const aside = `${stateFile.replace(/\.json$/, '')}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  renameSync(stateFile, aside);
  const good = goodStateFile(stateFile);
  const goodBytes = readWhole(good);
  if (goodBytes !== null) {
    writeFileAtomic(stateFile, goodBytes);
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
