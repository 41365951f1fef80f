import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isAnvil, stopAnvil } from './anvil-process.js';
import { type NodeOwnership, ownerFileOf, processRuns, readOwnership, releaseNode, sameOwnership } from './devnet-ownership.js';
import { type DevnetLog, keepGoodState } from './devnet-state.js';

/** What a watchdog watches, handed to it as one JSON argument. */
export interface WatchdogOrders {
  /** The node, and the service process that owns it. */
  readonly ownership: NodeOwnership;
  readonly pidFile: string;
  readonly stateFile: string | null;
  /** How long the owner may be gone (for a restart to take the node over) before the node is stopped. */
  readonly graceMs: number;
}

/** How the watch ended. */
export type WatchEnd = 'node gone' | 'taken over' | 'stopped';

const STOP_TIMEOUT_MS = 10_000;

/**
 * Node's arguments that run the watchdog: its compiled module beside this one, or, when this module
 * runs as TypeScript source (tests, tsx), the source through tsx's loader.
 */
function watchdogEntry(): string[] {
  if (!import.meta.url.endsWith('.ts')) return [fileURLToPath(new URL('./devnet-watchdog-main.js', import.meta.url))];
  return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./devnet-watchdog-main.ts', import.meta.url))];
}

/**
 * Starts a watchdog for the node: a detached process (a session of its own, so neither a kill of
 * the service's process group nor a Ctrl-C reaches it) with its output appended to the node's log.
 */
export function startWatchdog(orders: WatchdogOrders, logFile: string, log?: DevnetLog): void {
  const fd = openSync(logFile, 'a');
  try {
    const child = spawn(process.execPath, [...watchdogEntry(), JSON.stringify(orders)], {
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    child.once('error', (error) =>
      log?.error({ err: error }, "the devnet node's watchdog did not start: a kill -9 of the service leaves the node running"),
    );
    child.unref();
  } finally {
    closeSync(fd);
  }
}

/** The watchdog's orders from its argument; throws, saying what was expected, on anything else. */
export function parseOrders(text: string | undefined): WatchdogOrders {
  const orders = JSON.parse(text ?? 'null') as Partial<WatchdogOrders> | null;
  const { ownership, pidFile, stateFile, graceMs } = orders ?? {};
  if (
    typeof ownership?.node !== 'number' ||
    typeof ownership.owner?.pid !== 'number' ||
    typeof pidFile !== 'string' ||
    (stateFile !== null && typeof stateFile !== 'string') ||
    typeof graceMs !== 'number' ||
    !(graceMs > 0)
  ) {
    throw new Error(
      'the devnet watchdog expects one JSON argument: { ownership: { node, owner: { pid, started } }, pidFile, stateFile, graceMs > 0 }',
    );
  }
  return { ownership, pidFile, stateFile, graceMs };
}

/** Lines in the node's log (the watchdog's output goes there). */
const nodeLog: DevnetLog = {
  info: (fields, message) => say('info', fields, message),
  warn: (fields, message) => say('warn', fields, message),
  error: (fields, message) => say('error', fields, message),
};

function say(level: string, fields: object, message: string): void {
  process.stdout.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, name: 'devnet-watchdog', ...fields, msg: message })}\n`,
  );
}

/**
 * Watches a devnet node for its owner. It ends when the node is gone (stopped by its owner,
 * restarted, killed) or another service took it over (the owner file names that one, whose own
 * watchdog watches it). While the owner runs it only looks; once the owner has been gone for the
 * grace period, with nobody taking the node over, it stops the node with SIGINT (its state written;
 * SIGKILL after 10 s), removes its pid and owner files and keeps its state as the last good snapshot.
 */
export async function watchNode(orders: WatchdogOrders): Promise<WatchEnd> {
  const { ownership, graceMs } = orders;
  const every = Math.min(1_000, Math.max(50, Math.floor(graceMs / 4)));
  // When a check first found the owner gone: it has been gone at least this long.
  let goneSince: number | null = null;
  for (;;) {
    await sleep(every);
    if (!isAnvil(ownership.node)) return 'node gone';
    if (!sameOwnership(readOwnership(ownerFileOf(orders.pidFile)), ownership)) return 'taken over';
    if (processRuns(ownership.owner)) {
      goneSince = null;
      continue;
    }
    goneSince ??= Date.now();
    if (Date.now() - goneSince >= graceMs) break;
  }
  nodeLog.info(
    { node: ownership.node, owner: ownership.owner.pid, goneMs: Date.now() - (goneSince ?? Date.now()) },
    'the service that owned the devnet node is gone and nobody took the node over: stopping it, its state saved',
  );
  await stopAnvil(ownership.node, STOP_TIMEOUT_MS);
  releaseNode(ownership.node, orders.pidFile);
  if (orders.stateFile !== null) await keepGoodState(orders.stateFile, nodeLog);
  return 'stopped';
}
