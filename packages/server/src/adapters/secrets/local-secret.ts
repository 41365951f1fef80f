import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * A secret the devnet keeps in its data folder: created once with `create` (readable by the owner
 * only, never overwritten) and read back on every start, so what it protects survives a restart.
 */
export function localSecret(file: string, create: () => string): string {
  if (!existsSync(file)) writeFileSync(file, create(), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}
