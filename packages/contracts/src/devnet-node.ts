import { mkdtempSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { launch, ownNode } from './anvil-launch.js';
import { answers, headOf, isAnvil, killAnvil, readPid, runsOn, stopAnvil } from './anvil-process.js';
import type { DevnetNodeOptions } from './devnet-node-options.js';
import { releaseNode } from './devnet-ownership.js';
import { keepGoodState } from './devnet-state.js';

const STOP_TIMEOUT_MS = 10_000;
/** How long a node left running gets to answer before it is stopped and replaced. */
const REATTACH_TIMEOUT_MS = 3_000;
/** The node logs every request: its log file is emptied past this size. */
const LOG_LIMIT_BYTES = 8 * 1024 * 1024;

/**
 * A local EVM node (anvil) the service starts and supervises for the embedded devnet: loopback
 * only, state persisted to a file and written on a clean stop (SIGINT) and every few seconds. It
 * outlives a crash of the service, which reattaches to it on its next start; with an orphan grace,
 * a watchdog stops it once the service has been gone that long.
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
      if (orphan !== null) releaseNode(orphan, pidFile);
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
    // Taken over before it is asked: the watchdog of the run that left it steps down at once.
    ownNode(pid, options, logFile);
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
      releaseNode(this.currentPid, options.pidFile);
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
      releaseNode(this.pid, this.options.pidFile);
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
    releaseNode(this.pid, this.options.pidFile);
    this.removeOwnLog();
  }

  /** Removes the temp folder of the log when no log file was given. */
  private removeOwnLog(): void {
    if (this.options.logFile === undefined) rmSync(dirname(this.logFile), { recursive: true, force: true });
  }
}
