import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../operator-options.js';

/** The private key in `file` (`--key-file`): 0x and 64 hex digits, nothing else but whitespace. */
export function privateKeyFile(file: string): `0x${string}` {
  if (!existsSync(file)) throw new UsageError(`--key-file ${file} does not exist`);
  const key = readFileSync(file, 'utf8').trim();
  // The key itself is never echoed.
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError(`--key-file ${file} must hold a private key: 0x and 64 hex digits`);
  return key as `0x${string}`;
}

/**
 * The git work tree a file would be written into: the nearest folder at or above the file's own
 * (through symbolic links) holding a `.git`, a folder or, in a linked worktree or submodule, a
 * file. Null outside any.
 */
export function gitWorkTreeOf(file: string): string | null {
  const folder = dirname(resolve(file));
  let current = existsSync(folder) ? realpathSync(folder) : folder;
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return null;
    current = parent;
  }
}

/**
 * Refuses to write a key file inside a git work tree unless `allowed` (`--allow-in-repo`): one
 * `git add .` away from being committed, and a committed key is a key given away.
 */
export function refuseKeyFileInRepo(file: string, allowed: boolean): void {
  const workTree = allowed ? null : gitWorkTreeOf(file);
  if (workTree !== null) {
    throw new UsageError(
      `--key-file ${file} is inside the git work tree ${workTree}, where a commit could publish the key: write it outside the work tree, or pass --allow-in-repo to write it there anyway`,
    );
  }
}
