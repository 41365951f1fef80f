import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** The devnet node could not be found, started or kept running. */
export class DevnetNodeError extends Error {
  override readonly name = 'DevnetNodeError';
}

/** Where to look for anvil besides the pinned package; the caller's configuration reads them from its environment. */
export interface AnvilLocation {
  /** An explicit binary (`ANVIL_PATH`), used as is. */
  readonly anvilPath?: string | null | undefined;
  /** Folders to search for `anvil`, joined like `PATH`. */
  readonly searchPath?: string | undefined;
}

/**
 * Where the anvil binary is: an explicit path, else the pinned `@foundry-rs/anvil-linux-amd64`
 * package on Linux x64 (an optional dependency, absent elsewhere), else an `anvil` in `searchPath`.
 */
export function findAnvil(location: AnvilLocation = {}): string {
  if (location.anvilPath) return location.anvilPath;
  try {
    const manifest = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json');
    const binary = join(dirname(manifest), 'bin', 'anvil');
    if (existsSync(binary)) return binary;
  } catch {
    // not installed on this platform
  }
  for (const dir of (location.searchPath ?? '').split(delimiter)) {
    const candidate = join(dir, 'anvil');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new DevnetNodeError(
    'no anvil binary: install the optional dependency @foundry-rs/anvil-linux-amd64 (Linux x64), set ANVIL_PATH, or put anvil on PATH',
  );
}
