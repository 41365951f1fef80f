/**
 * Mends a known crash of the PostgreSQL driver (postgres 3.4.9, porsager/postgres#1154 and #1208,
 * fixes proposed upstream but not released): a write smaller than 1 KiB is sent on the next turn of
 * the event loop, and when the connection closes in between, that turn calls `write` on a socket
 * that is gone: an exception no caller can catch, which stops the process. The teardown also left
 * its timer set, so a connection opened again never sent a small write on its own. Run by
 * `postinstall`; idempotent; refuses loudly when the driver's code is not the one this mends.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Left at each change; packages/server's driver-patch test looks for it. */
const MARK = 'dex-exchange: closed socket guard';

// The package exports no package.json: its CommonJS entry is cjs/src/index.js.
const require = createRequire(new URL('../packages/server/package.json', import.meta.url));
const root = join(dirname(require.resolve('postgres')), '../..');

const NEXT_WRITE = `  function nextWrite(fn) {
    const x = socket.write(chunk, fn)`;
const GUARDED_NEXT_WRITE = `  function nextWrite(fn) {
    // ${MARK}: the connection closed since this write was queued; its queries hear of it.
    if (socket === null) {
      nextWriteTimer !== null && clearImmediate(nextWriteTimer)
      chunk = nextWriteTimer = null
      error(Errors.connection('CONNECTION_CLOSED', options))
      return false
    }
    const x = socket.write(chunk, fn)`;
const CLEAR = '    clearImmediate(nextWriteTimer)\n';
const CLEAR_AND_FORGET = `    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null // ${MARK}\n`;

for (const file of ['src/connection.js', 'cjs/src/connection.js']) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  if (text.includes(MARK)) continue;
  const clears = text.split(CLEAR).length - 1;
  if (!text.includes(NEXT_WRITE) || clears !== 2) {
    console.error(
      `scripts/patch-postgres-driver.mjs: ${path} is not the code this patch mends; check whether its release fixes porsager/postgres#1208`,
    );
    process.exit(1);
  }
  writeFileSync(path, text.replace(NEXT_WRITE, GUARDED_NEXT_WRITE).replaceAll(CLEAR, CLEAR_AND_FORGET));
}
