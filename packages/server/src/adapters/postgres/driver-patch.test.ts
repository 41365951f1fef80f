import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The mark scripts/patch-postgres-driver.mjs (run by postinstall) leaves at each of its three changes. */
const MARK = 'dex-exchange: closed socket guard';

describe('the PostgreSQL driver as installed', () => {
  it('carries the guard against a write queued before its connection closed, in both of its builds', () => {
    const root = join(dirname(createRequire(import.meta.url).resolve('postgres')), '../..');
    for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(text.split(MARK).length - 1, file).toBe(3);
    }
  });
});
