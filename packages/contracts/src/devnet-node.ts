import { type ChildProcess, spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DevnetNodeError, findAnvil } from './anvil-binary.js';
import { answers, headOf, isAnvil, killAnvil, readPid, releasePidFile, runsOn, stopAnvil } from './anvil-process.js';
import { writeFileAtomic } from './atomic-file.js';
import { compactState } from './devnet-history.js';
import { checkStateFile, type DevnetLog, keepGoodState } from './devnet-state.js';

export interface DevnetNodeOptions {
  readonly chainId: number;
  /** File the node loads its state from and writes it to; null keeps the chain in memory only. */
  readonly stateFile: string | null;
  /** Seconds between state dumps while running (a crash loses at most this much). */
  readonly stateIntervalSeconds?: number;
  /** Block gas limit of the devnet. */
  readonly gasLimit?: number;
  /** Seconds between blocks, as a chain with a consensus cadence (the ledger's is about 2); absent: a block per transaction. */
  readonly blockTimeSeconds?: number;
  /** Path of the anvil binary; else {@link findAnvil} with no explicit path or search path. */
  readonly binary?: string;
  /** Loopback port; 0 lets the node pick a free one. */
  readonly port?: number;
  readonly startTimeoutMs?: number;
  /**
   * File that records the node's process id. The node runs detached, in a process group of its
   * own, so a crash of the service (kill -9) leaves it running: the next start finds it through
   * this file and reattaches to it if it answers at `rpcUrl`, else stops it (its state saved)
   * before a new one starts on the same state file.
   */
  readonly pidFile?: string;
  /** Where the node named in `pidFile` was last recorded to answer; without it, no reattaching. */
  readonly rpcUrl?: string | undefined;
  /**
   * File the node's output goes to (emptied at each start, and when it outgrows a bound); else a
   * file in a fresh temp folder.
   */
  readonly logFile?: string;
  /** Seconds between checks that copy a whole state file aside as the last good snapshot. */
  readonly snapshotIntervalSeconds?: number;
  /** Where to report a damaged state file, and a reattached or restarted node. */
  readonly log?: DevnetLog;
  /**
   * Milliseconds between checks that the node still runs: one found gone (killed, crashed) is
   * started again on the same port and state file (its last good snapshot if the file is damaged),
   * so its clients keep their address. Absent or 0: not supervised.
   */
  readonly superviseMs?: number;
  /**
   * Called after a supervised node was started again: its chain is the one its state file held,
   * with `head` (read from the file before the node started: clients that send at once cannot
   * move it) its highest block; blocks the service saw above it are lost.
   */
  readonly onRestart?: (head: bigint) => void;
  /**
   * Blocks of history the node keeps: the transactions and receipts (events) of older blocks are
   * forgotten as new ones come, and older blocks are dropped from the state file whenever the node
   * starts. Absent: the whole history, which grows with every transaction.
   */
  readonly historyBlocks?: number;
  /**
   * A supervised node that has mined this many blocks since it started is stopped (its state
   * written) and started again on the same port with its history trimmed to `historyBlocks`: a
   * pause of about a second, like a node restart. Block headers are the part of the history the
   * node itself never forgets; this bounds them, so the state file and the node's work per
   * transaction stay flat.
   */
  readonly compactEveryBlocks?: number;
  /**
   * States of past blocks the node keeps for reads at those blocks, in memory only. Absent: anvil's
   * default, which writes every block's whole state to a folder of its own on disk (in the home
   * folder, never removed after a crash), each write the size of the state: work per transaction
   * that grows with the contracts' storage.
   */
  readonly pastStates?: number;
}

const LISTENING = /Listening on 127\.0\.0\.1:(\d+)/;
const STOP_TIMEOUT_MS = 10_000;
/** How long a node left running gets to answer before it is stopped and replaced. */
const REATTACH_TIMEOUT_MS = 3_000;
/** The node logs every request: its log file is emptied past this size. */
const LOG_LIMIT_BYTES = 8 * 1024 * 1024;

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
async function launch(options: DevnetNodeOptions, logFile: string): Promise<{ pid: number; port: number; head: bigint }> {
  let head = 0n;
  if (options.stateFile !== null) {
    ({ head } = checkStateFile(options.stateFile, options.log));
    if (options.historyBlocks !== undefined && existsSync(options.stateFile)) {
      try {
        const dropped = compactState(options.stateFile, options.historyBlocks);
        if (dropped.blocks > 0 || dropped.emptySlots > 0)
          options.log?.info(
            { dropped: dropped.blocks, emptySlots: dropped.emptySlots, kept: options.historyBlocks },
            "dropped the devnet chain's oldest blocks and empty storage slots from its state file",
          );
      } catch (error) {
        // A file past the longest string V8 holds (about 512 MB) cannot be parsed here; anvil loads it.
        options.log?.warn({ err: error }, "could not compact the devnet chain's state file; the node starts with all of it");
      }
    }
  }
  const { child, port } = await spawnAnvil(options, logFile);
  const pid = child.pid as number;
  const { pidFile } = options;
  if (pidFile !== undefined) {
    writeFileAtomic(pidFile, String(pid));
    child.once('exit', () => releasePidFile(pidFile, pid));
  }
  return { pid, port, head };
}

/**
 * Spawns anvil, detached when it has a pid file (its own process group: a kill of the service's
 * group leaves it running), with its output appended to `logFile`, which nobody has to drain, and waits for the port it
 * listens on, read from that file.
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

/**
 * A local EVM node (anvil) the service starts and supervises for the embedded devnet: loopback
 * only, state persisted to a file and written on a clean stop (SIGINT) and every few seconds. It
 * outlives a crash of the service, which reattaches to it on its next start.
 */
export class DevnetNode {
  private stopped: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly supervisor: NodeJS.Timeout | null;
  private restarting = false;
  private lastCopied = 0;
  /** A round of `tend` runs (a copy of a large state file can outlast the interval). */
  private tending = false;
  /** The head when the node started (a reattached or restarted one: at the first check); compaction counts blocks from it. */
  private startHead: bigint | null = null;

  private constructor(
    private currentPid: number,
    readonly rpcUrl: string,
    readonly port: number,
    /** Whether this is a node a previous run left running, rather than one this start spawned. */
    readonly reattached: boolean,
    private readonly options: DevnetNodeOptions,
    private readonly logFile: string,
  ) {
    this.timer = setInterval(() => void this.tend(), (options.snapshotIntervalSeconds ?? 30) * 1000);
    this.timer.unref();
    const every = options.superviseMs ?? 0;
    this.supervisor = every > 0 ? setInterval(() => void this.supervise(), every) : null;
    this.supervisor?.unref();
  }

  /** The node's process id (tests that kill it); a restarted node has a new one. */
  get pid(): number {
    return this.currentPid;
  }

  static async start(options: DevnetNodeOptions): Promise<DevnetNode> {
    const logFile = options.logFile ?? join(mkdtempSync(join(tmpdir(), 'devnet-node-')), 'anvil.log');
    const { pidFile } = options;
    if (pidFile !== undefined) {
      const running = await DevnetNode.reattach(options, pidFile, logFile);
      if (running !== null) return running;
      const orphan = readPid(pidFile);
      if (orphan !== null) await stopAnvil(orphan, STOP_TIMEOUT_MS);
      if (orphan !== null) releasePidFile(pidFile, orphan);
    }
    const { pid, port } = await launch(options, logFile).catch((error: unknown) => {
      if (options.logFile === undefined) rmSync(dirname(logFile), { recursive: true, force: true });
      throw error;
    });
    const node = new DevnetNode(pid, `http://127.0.0.1:${port}`, port, false, options, logFile);
    node.startHead = await headOf(node.rpcUrl, REATTACH_TIMEOUT_MS);
    return node;
  }

  /** The node named in the pid file, if it is anvil on this state file and answers at `rpcUrl`. */
  private static async reattach(options: DevnetNodeOptions, pidFile: string, logFile: string): Promise<DevnetNode | null> {
    const pid = readPid(pidFile);
    const { rpcUrl } = options;
    if (pid === null || rpcUrl === undefined || !isAnvil(pid) || !runsOn(pid, options.stateFile)) return null;
    const port = Number(new URL(rpcUrl).port);
    if (options.port !== undefined && options.port !== 0 && options.port !== port) return null;
    if (!(await answers(rpcUrl, options.chainId, REATTACH_TIMEOUT_MS))) return null;
    options.log?.info({ pid, rpcUrl }, 'reattached to the devnet node a previous run left running');
    // What it wrote last, if whole, is the last good snapshot from now on (one being written is skipped).
    if (options.stateFile !== null) await keepGoodState(options.stateFile, options.log);
    return new DevnetNode(pid, rpcUrl, port, true, options, logFile);
  }

  /** Starts the node again if it is gone; a failed start is logged and tried again at the next check. */
  private async supervise(): Promise<void> {
    if (this.stopped !== null || this.restarting || isAnvil(this.currentPid)) return;
    await this.relaunch(
      async () => {},
      (gone, pid) =>
        this.options.log?.warn(
          { gone, pid, rpcUrl: this.rpcUrl },
          'the devnet node was gone; started it again from its saved state',
        ),
    );
  }

  /** Stops the node (its state written) and starts it again, which trims its history, once it mined `every` blocks. */
  private async compactIfDue(every: number): Promise<void> {
    const head = await headOf(this.rpcUrl, REATTACH_TIMEOUT_MS);
    if (head === null || this.stopped !== null || this.restarting) return;
    this.startHead ??= head;
    if (head - this.startHead < BigInt(every)) return;
    const { stateFile } = this.options;
    const size = (): number => (stateFile === null ? 0 : (statSync(stateFile, { throwIfNoEntry: false })?.size ?? 0));
    const bytes = size();
    await this.relaunch(
      () => stopAnvil(this.currentPid, STOP_TIMEOUT_MS),
      (_, pid) =>
        this.options.log?.info(
          { head: Number(head), bytes, compactedBytes: size(), pid, rpcUrl: this.rpcUrl },
          `the devnet node mined ${every} blocks since it started; restarted it with its history trimmed`,
        ),
    );
  }

  /**
   * Stops what runs, starts a node on the same port and state file (its history trimmed: blocks
   * are counted again from its head), and tells the owner.
   */
  private async relaunch(stop: () => Promise<void>, started: (gone: number, pid: number) => void): Promise<void> {
    this.restarting = true;
    const { options } = this;
    const gone = this.currentPid;
    try {
      await stop();
      if (options.pidFile !== undefined) releasePidFile(options.pidFile, this.currentPid);
      const { pid, head } = await launch({ ...options, port: this.port }, this.logFile);
      if (this.stopped !== null) {
        await stopAnvil(pid, STOP_TIMEOUT_MS);
        return;
      }
      this.currentPid = pid;
      // Counted from the next check: the owner hears of the restart at once, before any other read.
      this.startHead = null;
      started(gone, pid);
      options.onRestart?.(head);
    } catch (error) {
      options.log?.error({ err: error, rpcUrl: this.rpcUrl }, 'the devnet node is gone and could not be started again');
    } finally {
      this.restarting = false;
    }
  }

  /**
   * Periodic care: a whole state file is copied aside as the last good snapshot, a supervised node
   * that mined `compactEveryBlocks` since it started is compacted, and the log is bounded.
   */
  private async tend(): Promise<void> {
    if (this.tending) return;
    this.tending = true;
    const { stateFile, compactEveryBlocks } = this.options;
    try {
      const modified = stateFile === null ? 0 : (statSync(stateFile, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (stateFile !== null && modified !== this.lastCopied && (await keepGoodState(stateFile, this.options.log)))
        this.lastCopied = modified;
      if (this.supervisor !== null && compactEveryBlocks !== undefined) await this.compactIfDue(compactEveryBlocks);
      if ((statSync(this.logFile, { throwIfNoEntry: false })?.size ?? 0) > LOG_LIMIT_BYTES) truncateSync(this.logFile, 0);
    } catch (error) {
      // Said, not swallowed: a round that keeps failing would keep the node from being compacted.
      this.options.log?.warn({ err: error, rpcUrl: this.rpcUrl }, 'tending the devnet node failed; the next round tries again');
    } finally {
      this.tending = false;
    }
  }

  /**
   * Stops the node with SIGINT so it writes its state, escalating to SIGKILL after a timeout, and
   * keeps the written state as the last good snapshot.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      clearInterval(this.timer);
      if (this.supervisor !== null) clearInterval(this.supervisor);
      await stopAnvil(this.pid, STOP_TIMEOUT_MS);
      if (this.options.pidFile !== undefined) releasePidFile(this.options.pidFile, this.pid);
      if (this.options.stateFile !== null) await keepGoodState(this.options.stateFile, this.options.log);
      this.removeOwnLog();
    })();
    return this.stopped;
  }

  /** Kills the node without letting it save (tests of a crash that loses the latest state). */
  async kill(): Promise<void> {
    this.stopped = Promise.resolve();
    clearInterval(this.timer);
    if (this.supervisor !== null) clearInterval(this.supervisor);
    await killAnvil(this.pid, STOP_TIMEOUT_MS);
    if (this.options.pidFile !== undefined) releasePidFile(this.options.pidFile, this.pid);
    this.removeOwnLog();
  }

  /** Removes the temp folder of the log when no log file was given. */
  private removeOwnLog(): void {
    if (this.options.logFile === undefined) rmSync(dirname(this.logFile), { recursive: true, force: true });
  }
}
