/**
 * The durability floor of bench:latency: 4 KiB written and made durable with fdatasync, in a file
 * on the data directory's filesystem. The blocks are written once before the clock starts, so each
 * timed write overwrites an allocated block, as SQLite's WAL is rewritten from its start after a
 * checkpoint (a growing file would add a metadata commit to each sync).
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const BLOCK_BYTES = 4096;
/** The file the timed writes cycle over: 1 MiB, a WAL of a few hundred pages. */
const BLOCKS = 256;

/** `count` timed writes of 4 KiB each followed by fdatasync, in a temporary file under `folder`; the milliseconds of each, sorted. */
export function fdatasyncFloor(folder: string, count: number): number[] {
  const scratch = mkdtempSync(join(folder, 'bench-fdatasync-'));
  const fd = openSync(join(scratch, 'wal'), 'w');
  try {
    const block = Buffer.alloc(BLOCK_BYTES, 0x5a);
    for (let index = 0; index < BLOCKS; index++) writeSync(fd, block, 0, BLOCK_BYTES, index * BLOCK_BYTES);
    fdatasyncSync(fd);
    const latencies: number[] = [];
    for (let index = 0; index < count; index++) {
      block.writeUInt32LE(index, 0);
      const before = performance.now();
      writeSync(fd, block, 0, BLOCK_BYTES, (index % BLOCKS) * BLOCK_BYTES);
      fdatasyncSync(fd);
      latencies.push(performance.now() - before);
    }
    return latencies.sort((a, b) => a - b);
  } finally {
    closeSync(fd);
    rmSync(scratch, { recursive: true, force: true });
  }
}
