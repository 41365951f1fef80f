import { existsSync, readFileSync, rmSync } from 'node:fs';
import { isAnvil, releasePidFile } from './anvil-process.js';
import { writeFileAtomic } from './atomic-file.js';
import { processLives, processStartTime } from './process-alive.js';

/** A process, told from a later one given the same id by when it started (null where that cannot be read). */
export interface ProcessIdentity {
  readonly pid: number;
  readonly started: string | null;
}

/** Which service process owns which anvil node: what the owner file beside the pid file says. */
export interface NodeOwnership {
  readonly node: number;
  readonly owner: ProcessIdentity;
}

/** The owner file beside a node's pid file: `devnet-chain.pid` -> `devnet-chain.owner`. */
export function ownerFileOf(pidFile: string): string {
  return `${pidFile.replace(/\.pid$/, '')}.owner`;
}

export function thisProcess(): ProcessIdentity {
  return { pid: process.pid, started: processStartTime(process.pid) };
}

/** Whether the process still runs, and is the same one (not a later one given its id). */
export function processRuns(identity: ProcessIdentity): boolean {
  if (!processLives(identity.pid)) return false;
  return identity.started === null || processStartTime(identity.pid) === identity.started;
}

/** What an owner file says, or null if it is missing or unreadable (a watchdog then steps down). */
export function readOwnership(ownerFile: string): NodeOwnership | null {
  if (!existsSync(ownerFile)) return null;
  try {
    const found = JSON.parse(readFileSync(ownerFile, 'utf8')) as Partial<NodeOwnership>;
    const { node, owner } = found;
    if (typeof node !== 'number' || typeof owner?.pid !== 'number') return null;
    return { node, owner: { pid: owner.pid, started: typeof owner.started === 'string' ? owner.started : null } };
  } catch {
    return null;
  }
}

/** Whether two ownerships name the same node and the same owner. */
export function sameOwnership(a: NodeOwnership | null, b: NodeOwnership): boolean {
  return a !== null && a.node === b.node && a.owner.pid === b.owner.pid && a.owner.started === b.owner.started;
}

/** Anvil nodes this process owns (started or took over) and has not stopped: stopped when it exits. */
const owned = new Set<number>();

/**
 * SIGINT, not waited for, to every node this process still owns as it exits (process.exit after a
 * shutdown that outlasted its grace, a signal during start-up, an uncaught error): each writes its
 * state and stops by itself. Only a process killed outright (kill -9) leaves its node running.
 */
function stopOwnedNodes(): void {
  for (const pid of owned) {
    try {
      if (isAnvil(pid)) process.kill(pid, 'SIGINT');
    } catch {
      // gone meanwhile
    }
  }
}

/**
 * Makes this process the owner of anvil `node`: the pid file names the node and the owner file
 * this process (a watchdog of an earlier owner then steps down), and the node is stopped when this
 * process exits.
 */
export function claimNode(node: number, pidFile: string | undefined): NodeOwnership {
  if (owned.size === 0) process.on('exit', stopOwnedNodes);
  owned.add(node);
  const ownership = { node, owner: thisProcess() };
  if (pidFile !== undefined) {
    writeFileAtomic(pidFile, String(node));
    writeFileAtomic(ownerFileOf(pidFile), JSON.stringify(ownership));
  }
  return ownership;
}

/**
 * Gives anvil `node` up (it stopped, or is being stopped by its owner): the pid file and the owner
 * file are removed if they still name it (a newer node of the same owner may have them).
 */
export function releaseNode(node: number, pidFile: string | undefined): void {
  owned.delete(node);
  if (owned.size === 0) process.off('exit', stopOwnedNodes);
  if (pidFile === undefined) return;
  releasePidFile(pidFile, node);
  const ownerFile = ownerFileOf(pidFile);
  if (readOwnership(ownerFile)?.node === node) rmSync(ownerFile, { force: true });
}
