import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readPid } from '../../src/anvil-process.js';
import type { DevnetNodeOptions } from '../../src/devnet-node-options.js';
import { processLives } from '../../src/process-alive.js';

const OWNER = fileURLToPath(new URL('./node-owner.ts', import.meta.url));
/** The address the owners fund, to tell their chain by. */
export const MARK = '0x000000000000000000000000000000000000beef';

export interface NodeOwnerProcess {
  readonly child: ChildProcess;
  /** The node's pid and address, once the owner started or took it over and marked its chain. */
  readonly ready: Promise<{ pid: number; rpcUrl: string; reattached: boolean }>;
  readonly exited: Promise<number | null>;
}

const owners = new Set<ChildProcess>();
const pidFiles = new Set<string>();

/**
 * An owner process (node-owner.ts) of the node the options describe: a process group of its own,
 * as a service runs; `exit` makes it exit at once without stopping its node.
 */
export function startOwner(options: DevnetNodeOptions, mode: 'idle' | 'exit' = 'idle'): NodeOwnerProcess {
  if (options.pidFile !== undefined) pidFiles.add(options.pidFile);
  const child = spawn(process.execPath, ['--import', 'tsx', OWNER, JSON.stringify({ ...options, mark: MARK }), mode], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  owners.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<{ pid: number; rpcUrl: string; reattached: boolean }>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line !== undefined) resolve(JSON.parse(line) as { pid: number; rpcUrl: string; reattached: boolean });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`the owner exited with ${code} before it was ready:\n${output}`)));
  });
  ready.catch(() => {});
  return { child, ready, exited };
}

/** kill -9 of the owner's process group, as a crash of the service; resolves once it is gone. */
export async function killOwner(owner: NodeOwnerProcess): Promise<void> {
  try {
    process.kill(-(owner.child.pid as number), 'SIGKILL');
  } catch {
    // already gone
  }
  await owner.exited;
}

/** The watchdogs running for the node of `pidFile` (their orders name it). */
export function watchdogsOf(pidFile: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (args.includes('devnet-watchdog-main') && args.includes(JSON.stringify(pidFile))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Polls `check` until it holds, up to `timeoutMs`; answers whether it did. */
export async function eventually(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Kills what the owners left: the owners, their nodes and the nodes' watchdogs; for `afterEach`. */
export function cleanUpOwners(): void {
  const kill = (pid: number) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  for (const owner of owners) if (owner.exitCode === null && owner.pid !== undefined && processLives(owner.pid)) kill(-owner.pid);
  owners.clear();
  for (const pidFile of pidFiles) {
    for (const watchdog of watchdogsOf(pidFile)) kill(watchdog);
    const node = readPid(pidFile);
    if (node !== null) kill(node);
  }
  pidFiles.clear();
}
