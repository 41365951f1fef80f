import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { DevnetNodeError, findAnvil } from './anvil-binary.js';
import type { DevnetNodeOptions } from './devnet-node-options.js';
import { claimNode, releaseNode } from './devnet-ownership.js';
import { startWatchdog } from './devnet-watchdog.js';
import { prepareStateFileAside } from './state-file-preparation.js';

const LISTENING = /Listening on 127\.0\.0\.1:(\d+)/;

function anvilArgs(options: DevnetNodeOptions): string[] {
  const args = [
    '--host',
    '127.0.0.1',
    '--port',
    String(options.port ?? 0),
    '--chain-id',
    String(options.chainId),
    '--accounts',
    '1',
    '--hardfork',
    'cancun',
    '--gas-limit',
    String(options.gasLimit ?? 30_000_000),
  ];
  if (options.stateFile !== null) {
    args.push('--state', options.stateFile, '--state-interval', String(options.stateIntervalSeconds ?? 2));
  }
  if (options.blockTimeSeconds !== undefined) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.historyBlocks !== undefined) args.push('--transaction-block-keeper', String(options.historyBlocks));
  if (options.pastStates !== undefined) args.push('--prune-history', String(options.pastStates));
  return args;
}

/** The last `length` characters of a file, or '' if it cannot be read. */
function tail(file: string, length: number): string {
  try {
    return readFileSync(file, 'utf8').slice(-length);
  } catch {
    return '';
  }
}

/**
 * Starts a node on the options' state file (checked first: one cut short or ahead of its saved
 * history is replaced by its last good snapshot) and records its pid file.
 */
export async function launch(options: DevnetNodeOptions, logFile: string): Promise<{ pid: number; port: number; head: bigint }> {
  const head =
    options.stateFile === null ? 0n : await prepareStateFileAside(options.stateFile, options.historyBlocks, options.log);
  const { child, port } = await spawnAnvil(options, logFile);
  return { pid: child.pid as number, port, head };
}

/**
 * Makes this process the owner of anvil `pid` (see claimNode) and, with a pid file and a grace,
 * starts its watchdog, which stops it once this process has been gone that long.
 */
export function ownNode(pid: number, options: DevnetNodeOptions, logFile: string): void {
  const ownership = claimNode(pid, options.pidFile);
  const { pidFile, orphanGraceMs } = options;
  if (pidFile === undefined || orphanGraceMs === undefined) return;
  startWatchdog({ ownership, pidFile, stateFile: options.stateFile, graceMs: orphanGraceMs }, logFile, options.log);
}

/**
 * Spawns anvil, detached when it has a pid file (its own process group: a kill of the service's
 * group leaves it running), owned by this process from the start (its pid file written, its
 * watchdog started: a service killed while the node starts leaves nothing unwatched), with its
 * output appended to `logFile`, which nobody has to drain, and waits for the port it listens on,
 * read from that file.
 */
async function spawnAnvil(options: DevnetNodeOptions, logFile: string): Promise<{ child: ChildProcess; port: number }> {
  writeFileSync(logFile, '', { mode: 0o600 });
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // Only a node with a pid file can be found again: one without stays in the caller's process
    // group, so a kill of the group (a test run cut short) takes it along.
    const detached = options.pidFile !== undefined;
    child = spawn(options.binary ?? findAnvil(), anvilArgs(options), { detached, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  child.unref();
  const { pid } = child;
  if (pid !== undefined) {
    ownNode(pid, options, logFile);
    child.once('exit', () => releaseNode(pid, options.pidFile));
  }
  let failure: DevnetNodeError | null = null;
  const onExit = (code: number | null) => {
    failure = new DevnetNodeError(`the devnet node exited with code ${code}: ${tail(logFile, 500)}`);
  };
  const onError = (error: Error) => {
    failure = new DevnetNodeError(`the devnet node could not start: ${error.message}`);
  };
  child.once('exit', onExit);
  child.once('error', onError);
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  try {
    for (;;) {
      const match = LISTENING.exec(tail(logFile, 64_000));
      if (match) return { child, port: Number(match[1]) };
      if (failure !== null) throw failure;
      if (Date.now() > deadline) throw new DevnetNodeError('the devnet node did not start in time');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    child.off('exit', onExit);
    child.off('error', onError);
  }
}
