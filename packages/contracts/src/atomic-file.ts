import {
  closeSync,
  constants,
  copyFileSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { copyFile, open, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { processLives } from './process-alive.js';

let temps = 0;

/** A new temp file name beside `file` (see `removeStrayTemps`). */
function tempName(file: string): string {
  temps += 1;
  return `${file}.${process.pid}.${temps}.tmp`;
}

/** Flushes a file already written to disk. */
function flush(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` to a new temp file beside `file` and flushes it to disk; returns its name. */
function writeTemp(file: string, data: string | Uint8Array, mode: number): string {
  const temp = tempName(file);
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
  install(writeTemp(file, data, mode), file);
}

/** Renames a flushed temp file over `file` (removing the temp file if that fails). */
function install(temp: string, file: string): void {
  try {
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(file);
}

/** Replaces `file` with a copy of `source`, whole or not at all, as `writeFileAtomic` does. */
export function copyFileAtomic(source: string, file: string): void {
  const temp = tempName(file);
  try {
    copyFileSync(source, temp, constants.COPYFILE_EXCL);
    flush(temp);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  install(temp, file);
}

/**
 * Copies `source` to a temp file without blocking the event loop, and replaces `file` with it, as
 * `copyFileAtomic` does, only if `accept` judges the copy good (e.g. whole). Returns whether it did.
 */
export async function copyFileAtomicIf(
  source: string,
  file: string,
  accept: (copy: string) => Promise<boolean>,
): Promise<boolean> {
  const temp = tempName(file);
  try {
    await copyFile(source, temp, constants.COPYFILE_EXCL);
    if (!(await accept(temp))) {
      await rm(temp, { force: true });
      return false;
    }
    const handle = await open(temp, 'r+');
    await handle.sync().finally(() => handle.close());
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  install(temp, file);
  return true;
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
