import { existsSync, statSync } from 'node:fs';
import { compactState } from './devnet-history.js';
import { checkStateFile, type DevnetLog } from './devnet-state.js';
import { moduleWorker } from './module-worker.js';

/** A log line the worker wrote, replayed on the parent's log. */
export interface LogRecord {
  readonly level: keyof DevnetLog;
  readonly fields: object;
  readonly message: string;
}

/** What the worker answers: the head the prepared file holds, or why it could not prepare it. */
export type PreparationAnswer =
  | { readonly head: bigint; readonly log: LogRecord[] }
  | { readonly error: unknown; readonly log: LogRecord[] };

/**
 * Readies a state file for a node to load, and answers the head it holds: one cut short or ahead
 * of its saved history is replaced by its last good snapshot, and with `historyBlocks` its old
 * blocks and empty slots are dropped. Parses the whole file, so it holds its thread for as long.
 */
export function prepareStateFile(stateFile: string, historyBlocks: number | undefined, log?: DevnetLog): bigint {
  const { head } = checkStateFile(stateFile, log);
  if (historyBlocks === undefined || !existsSync(stateFile)) return head;
  try {
    const dropped = compactState(stateFile, historyBlocks);
    if (dropped.blocks > 0 || dropped.emptySlots > 0)
      log?.info(
        { dropped: dropped.blocks, emptySlots: dropped.emptySlots, kept: historyBlocks },
        "dropped the devnet chain's oldest blocks and empty storage slots from its state file",
      );
  } catch (error) {
    // A file past the longest string V8 holds (about 512 MB) cannot be parsed here; anvil loads it.
    log?.warn({ err: error }, "could not compact the devnet chain's state file; the node starts with all of it");
  }
  return head;
}

/** A state file up to this size is prepared in the calling thread: parsing it costs less than starting a worker (35-50 ms). */
const IN_THREAD_BYTES = 1024 * 1024;

/**
 * prepareStateFile without holding the calling thread for long: a file over 1 MiB is prepared on
 * a worker thread. The service restarts its node to compact it while it serves
 * (DEVNET_CHAIN_COMPACT_BLOCKS), and parsed and written on the thread that answers requests, a
 * state file of 4.9 MB (about the live devnet's by then) held it for 190 ms.
 */
export async function prepareStateFileAside(
  stateFile: string,
  historyBlocks: number | undefined,
  log?: DevnetLog,
): Promise<bigint> {
  const bytes = statSync(stateFile, { throwIfNoEntry: false })?.size ?? 0;
  if (bytes <= IN_THREAD_BYTES) return prepareStateFile(stateFile, historyBlocks, log);
  return prepareStateFileOffThread(stateFile, historyBlocks, log);
}

/** prepareStateFile on a worker thread, its log replayed on `log` when it answers. */
export function prepareStateFileOffThread(
  stateFile: string,
  historyBlocks: number | undefined,
  log?: DevnetLog,
): Promise<bigint> {
  const worker = moduleWorker(import.meta.url, 'state-file-worker', { workerData: { stateFile, historyBlocks } });
  return new Promise((resolve, reject) => {
    worker.once('message', (answer: PreparationAnswer) => {
      for (const { level, fields, message } of answer.log) log?.[level](fields, message);
      if ('error' in answer) reject(answer.error);
      else resolve(answer.head);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`preparing the devnet state file: its worker exited with ${code}`)));
  });
}
