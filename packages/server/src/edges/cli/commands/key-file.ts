import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../operator-options.js';

/** The private key in `file` (`--key-file`): 0x and 64 hex digits, nothing else but whitespace. */
export function privateKeyFile(file: string): `0x${string}` {
  if (!existsSync(file)) throw new UsageError(`--key-file ${file} does not exist`);
  const key = readFileSync(file, 'utf8').trim();
  // The key itself is never echoed.
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError(`--key-file ${file} must hold a private key: 0x and 64 hex digits`);
  return key as `0x${string}`;
}
