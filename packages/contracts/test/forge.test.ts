import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findForge, runForge } from './support/forge.js';

/** packages/contracts, where foundry.toml is. */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forge = findForge({ forgePath: process.env.FORGE_PATH, searchPath: process.env.PATH });

// A cold run compiles src/ via IR and forge/ without it, in parallel, with the wasm solc (about
// 30 s on two cores), then fuzzes (about 25 s, the reactor's invariant suite the longest); a warm
// one only fuzzes. The bound leaves room for a busy machine (vitest runs the anvil suites beside
// this one).
const FORGE_TIMEOUT_MS = 240_000;

if (forge === null) {
  console.warn(
    'forge.test.ts: no forge binary for this platform (install @foundry-rs/forge-linux-amd64 on Linux x64, set FORGE_PATH or put forge on PATH): the forge suites are SKIPPED',
  );
}

describe.skipIf(forge === null)('forge suites (packages/contracts/forge)', () => {
  it(
    'pass: unit, fuzz and invariant tests of the AMM contracts and the reactor',
    async () => {
      const run = await runForge(forge as string, ['test'], root, FORGE_TIMEOUT_MS);
      expect(run.code, `forge test failed after ${run.ms} ms:\n${run.output}`).toBe(0);
      expect(run.output).toMatch(/tests? passed, 0 failed/);
    },
    FORGE_TIMEOUT_MS + 10_000,
  );

  it(
    'are lint clean: forge lint finds nothing that is not answered in the code',
    async () => {
      const run = await runForge(forge as string, ['lint', '--deny', 'notes'], root, FORGE_TIMEOUT_MS);
      expect(run.code, `forge lint failed:\n${run.output}`).toBe(0);
    },
    FORGE_TIMEOUT_MS + 10_000,
  );
});
