import { existsSync, readFileSync, rmSync } from 'node:fs';
import { processLives } from './process-alive.js';

/** The command line of process `pid`, or null where it cannot be read (no such process, or no /proc). */
function commandLine(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return null;
  }
}

/** Whether `pid` is a running anvil process (not a reused id of something else). */
export function isAnvil(pid: number): boolean {
  const args = commandLine(pid);
  if (args !== null) return args[0]?.endsWith('anvil') === true;
  // No such process, or no /proc on this platform: signal 0 at least tells whether it lives (as
  // one of ours: another user's could not be signalled).
  return processLives(pid, { othersToo: false }) && existsSync('/proc') === false;
}

/** Whether anvil `pid` was started on `stateFile` (true where the command line cannot be read). */
export function runsOn(pid: number, stateFile: string | null): boolean {
  const args = commandLine(pid);
  if (args === null || stateFile === null) return true;
  return args[args.indexOf('--state') + 1] === stateFile;
}

/** The process id a pid file names, or null. */
export function readPid(pidFile: string): number | null {
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
}

/** Removes the pid file if it still names `pid` (a newer node may have taken it). */
export function releasePidFile(pidFile: string, pid: number): void {
  if (readPid(pidFile) === pid) rmSync(pidFile, { force: true });
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** Waits until anvil `pid` is gone, up to `timeoutMs`; returns whether it is. */
export async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAnvil(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return !isAnvil(pid);
}

/**
 * Stops anvil `pid` with SIGINT, so it writes its state, escalating to SIGKILL after `timeoutMs`.
 * Works on a node this process did not start (only its pid is known): its exit is polled.
 */
export async function stopAnvil(pid: number, timeoutMs: number): Promise<void> {
  if (!isAnvil(pid)) return;
  signal(pid, 'SIGINT');
  if (await waitGone(pid, timeoutMs)) return;
  signal(pid, 'SIGKILL');
  await waitGone(pid, timeoutMs);
}

/** Kills anvil `pid` without letting it save. */
export async function killAnvil(pid: number, timeoutMs: number): Promise<void> {
  if (!isAnvil(pid)) return;
  signal(pid, 'SIGKILL');
  await waitGone(pid, timeoutMs);
}

/** The hex quantity a JSON-RPC node answers to a method without parameters, or null if it does not within `timeoutMs`. */
async function quantity(rpcUrl: string, method: string, timeoutMs: number): Promise<bigint | null> {
  try {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json()) as { result?: unknown };
    return typeof body.result === 'string' ? BigInt(body.result) : null;
  } catch {
    return null;
  }
}

/** Whether a JSON-RPC node answers at `rpcUrl` with `chainId` within `timeoutMs`. */
export async function answers(rpcUrl: string, chainId: number, timeoutMs: number): Promise<boolean> {
  return (await quantity(rpcUrl, 'eth_chainId', timeoutMs)) === BigInt(chainId);
}

/** The node's head block number, or null if it does not answer within `timeoutMs`. */
export function headOf(rpcUrl: string, timeoutMs: number): Promise<bigint | null> {
  return quantity(rpcUrl, 'eth_blockNumber', timeoutMs);
}
