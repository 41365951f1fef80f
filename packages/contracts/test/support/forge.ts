import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

/** Where to look for forge besides the pinned package, as the caller's environment says. */
export interface ForgeLocation {
  /** An explicit binary (`FORGE_PATH`), used as is. */
  readonly forgePath?: string | null | undefined;
  /** Folders to search for `forge`, joined like `PATH`. */
  readonly searchPath?: string | undefined;
}

/**
 * Where the forge binary is: an explicit path, else the pinned `@foundry-rs/forge-linux-amd64`
 * package on Linux x64 (an optional dependency, absent elsewhere), else a `forge` in `searchPath`;
 * null when there is none (the suites are then skipped, saying so).
 */
export function findForge(location: ForgeLocation = {}): string | null {
  if (location.forgePath) return location.forgePath;
  try {
    const manifest = createRequire(import.meta.url).resolve('@foundry-rs/forge-linux-amd64/package.json');
    const binary = join(dirname(manifest), 'bin', 'forge');
    if (existsSync(binary)) return binary;
  } catch {
    // not installed on this platform
  }
  for (const dir of (location.searchPath ?? '').split(delimiter)) {
    const candidate = join(dir, 'forge');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  return null;
}

export interface ForgeRun {
  /** The exit code, or null when forge was killed (timeout). */
  readonly code: number | null;
  /** stdout and stderr together, for a failure message. */
  readonly output: string;
  readonly ms: number;
}

/** Runs forge with `args` in `cwd`, killed after `timeoutMs`. */
export function runForge(forge: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<ForgeRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      forge,
      args,
      {
        cwd,
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024 * 1024,
        // The default profile whatever the caller's shell says; no colours in the captured output.
        env: { ...process.env, FOUNDRY_PROFILE: 'default', NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const killed = error?.killed ? `\n[killed after ${timeoutMs} ms]` : '';
        resolve({ code, output: `${stdout}${stderr}${killed}`, ms: Date.now() - started });
      },
    );
  });
}
