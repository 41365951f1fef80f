import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';

export interface DevnetNodeOptions {
  readonly chainId: number;
  /** File the node loads its state from and writes it to; null keeps the chain in memory only. */
  readonly stateFile: string | null;
  /** Seconds between state dumps while running (a crash loses at most this much). */
  readonly stateIntervalSeconds?: number;
  /** Block gas limit of the devnet. */
  readonly gasLimit?: number;
  /** Path of the anvil binary; else {@link findAnvil} with no explicit path or search path. */
  readonly binary?: string;
  /** Loopback port; 0 lets the node pick a free one. */
  readonly port?: number;
  readonly startTimeoutMs?: number;
  /**
   * File that records the node's process id. A node left running by a service that died without
   * stopping it (kill -9) is found through it and stopped (its state saved) before a new one starts
   * on the same state file.
   */
  readonly pidFile?: string;
}

export class DevnetNodeError extends Error {
  override readonly name = 'DevnetNodeError';
}

const LISTENING = /Listening on 127\.0\.0\.1:(\d+)/;
const STOP_TIMEOUT_MS = 10_000;

/** Where to look for anvil besides the pinned package; the caller's configuration reads them from its environment. */
export interface AnvilLocation {
  /** An explicit binary (`ANVIL_PATH`), used as is. */
  readonly anvilPath?: string | null | undefined;
  /** Folders to search for `anvil`, joined like `PATH`. */
  readonly searchPath?: string | undefined;
}

/**
 * Where the anvil binary is: an explicit path, else the pinned `@foundry-rs/anvil-linux-amd64`
 * package on Linux x64 (an optional dependency, absent elsewhere), else an `anvil` in `searchPath`.
 */
export function findAnvil(location: AnvilLocation = {}): string {
  if (location.anvilPath) return location.anvilPath;
  try {
    const manifest = createRequire(import.meta.url).resolve('@foundry-rs/anvil-linux-amd64/package.json');
    const binary = join(dirname(manifest), 'bin', 'anvil');
    if (existsSync(binary)) return binary;
  } catch {
    // not installed on this platform
  }
  for (const dir of (location.searchPath ?? '').split(delimiter)) {
    const candidate = join(dir, 'anvil');
    if (dir !== '' && existsSync(candidate)) return candidate;
  }
  throw new DevnetNodeError(
    'no anvil binary: install the optional dependency @foundry-rs/anvil-linux-amd64 (Linux x64), set ANVIL_PATH, or put anvil on PATH',
  );
}

/** Whether `pid` is a running anvil process (not a reused id of something else). */
function isAnvil(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]?.endsWith('anvil') === true;
  } catch {
    // No such process, or no /proc on this platform: signal 0 at least tells whether it lives.
    try {
      process.kill(pid, 0);
      return existsSync('/proc') === false;
    } catch {
      return false;
    }
  }
}

/** Stops the node a previous process left behind, letting it write its state first. */
async function stopOrphan(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isSafeInteger(pid) && pid > 0 && isAnvil(pid)) {
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (isAnvil(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (isAnvil(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(pidFile, { force: true });
}

/**
 * A local EVM node (anvil) the service starts and supervises for the embedded devnet: loopback
 * only, state persisted to a file and written on a clean stop (SIGINT) and every few seconds.
 */
export class DevnetNode {
  private exited: Promise<void>;
  private stopping = false;

  private constructor(
    private readonly child: ChildProcess,
    readonly rpcUrl: string,
    readonly port: number,
    onExit: Promise<void>,
  ) {
    this.exited = onExit;
  }

  static async start(options: DevnetNodeOptions): Promise<DevnetNode> {
    if (options.pidFile !== undefined) await stopOrphan(options.pidFile);
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
    const child = spawn(options.binary ?? findAnvil(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const port = await new Promise<number>((resolve, reject) => {
      let output = '';
      const onExit = (code: number | null) =>
        fail(new DevnetNodeError(`the devnet node exited with code ${code}: ${output.slice(-500)}`));
      const onError = (error: Error) => fail(new DevnetNodeError(`the devnet node could not start: ${error.message}`));
      const settle = () => {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.off('error', onError);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
      };
      const fail = (error: Error) => {
        settle();
        child.kill('SIGKILL');
        reject(error);
      };
      const onData = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4_000);
        const match = LISTENING.exec(output);
        if (match) {
          settle();
          resolve(Number(match[1]));
        }
      };
      const timer = setTimeout(
        () => fail(new DevnetNodeError('the devnet node did not start in time')),
        options.startTimeoutMs ?? 20_000,
      );
      child.once('exit', onExit);
      child.once('error', onError);
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
    });
    // Keep draining the node's output so it never blocks on a full pipe; it logs every request.
    child.stdout?.resume();
    child.stderr?.resume();
    const { pidFile } = options;
    if (pidFile !== undefined && child.pid !== undefined) {
      writeFileSync(pidFile, String(child.pid), { mode: 0o600 });
      exited.then(() => rmSync(pidFile, { force: true })).catch(() => {});
    }
    return new DevnetNode(child, `http://127.0.0.1:${port}`, port, exited);
  }

  /** The node's process id (tests that kill it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the node with SIGINT so it writes its state, escalating to SIGKILL after a timeout. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (!this.stopping) {
      this.stopping = true;
      this.child.kill('SIGINT');
    }
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** Kills the node without letting it save (tests of a crash that loses the latest state). */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
