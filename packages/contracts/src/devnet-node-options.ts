import type { DevnetLog } from './devnet-state.js';

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
   * before a new one starts on the same state file. A process that exits any other way (its
   * shutdown cut short, an uncaught error) stops its node on the way out.
   */
  readonly pidFile?: string;
  /**
   * With a pid file: how long the node outlives its owner, the service process that started it or
   * took it over, once that is gone without stopping it (a kill -9), for a restart to take it over
   * (the owner file beside the pid file names the owner). Then a watchdog, a detached process that
   * watches the owner, stops it with SIGINT (its state written). Absent: no watchdog, and such a node
   * runs until a service stops it.
   */
  readonly orphanGraceMs?: number;
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
