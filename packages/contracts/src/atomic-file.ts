import { closeSync, fsyncSync, linkSync, openSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { processLives } from './process-alive.js';

let temps = 0;

/** Writes `data` to a new temp file beside `file` and flushes it to disk; returns its name. */
function writeTemp(file: string, data: string | Uint8Array, mode: number): string {
  temps += 1;
  const temp = `${file}.${process.pid}.${temps}.tmp`;
  const fd = openSync(temp, 'wx', mode);
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  return temp;
}

/** Flushes the folder's entries, so a rename survives a power loss too (best effort). */
function syncFolder(file: string): void {
  try {
    const fd = openSync(dirname(file), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // not supported on this platform or file system
  }
}

/**
 * Replaces `file` with `data` whole or not at all: the data goes to a temp file beside it, is
 * flushed, and is renamed over `file`. A crash at any point leaves the old file or the new one,
 * never a part of either (at worst a stray `*.tmp` beside it).
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): void {
  const temp = writeTemp(file, data, mode);
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(file);
}

/**
 * Creates `file` with `data` whole or not at all, never replacing it: the temp file is linked to
 * the name, which fails if it exists. Returns whether this call created it.
 */
export function createFileAtomic(file: string, data: string | Uint8Array, mode = 0o600): boolean {
  const temp = writeTemp(file, data, mode);
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  syncFolder(file);
  return true;
}

/** A temp file of `writeTemp`: `<file>.<pid>.<n>.tmp`. */
const TEMP = /\.(\d+)\.\d+\.tmp$/;

/**
 * Removes the temp files a crashed writer left in `folder` (those of processes no longer running);
 * returns their names. A running writer's temp files are left alone.
 */
export function removeStrayTemps(folder: string): string[] {
  const stray = readdirSync(folder).filter((name) => {
    const pid = TEMP.exec(name)?.[1];
    return pid !== undefined && !processLives(Number(pid));
  });
  for (const name of stray) rmSync(join(folder, name), { force: true });
  return stray;
}
