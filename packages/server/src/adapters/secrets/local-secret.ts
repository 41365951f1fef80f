import { existsSync, readFileSync } from 'node:fs';
import { createFileAtomic } from '@dex/contracts';

/**
 * A secret the devnet keeps in its data folder: created once with `create` (readable by the owner
 * only, never overwritten) and read back on every start, so what it protects survives a restart.
 * It is written whole or not at all (a temp file linked to its name), so a crash never leaves a
 * cut-short secret behind.
 */
export function localSecret(file: string, create: () => string): string {
  if (!existsSync(file)) createFileAtomic(file, create(), 0o600);
  return readFileSync(file, 'utf8').trim();
}
