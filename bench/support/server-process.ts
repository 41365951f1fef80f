/**
 * A benchmark's server in a child process (support/server-child.ts), so the client's work does not
 * share its event loop: started on a fresh store in a temporary DATA_DIR, stopped (and its folder
 * removed) at the end, killed if the benchmark is interrupted (with its own children: the devnet
 * chain's node).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Eip712Domain } from '@dex/core';
import { childProcesses } from './cpu.js';
import type { ChildMessage, ParentMessage, SettlementFacts } from './server-child.js';

const SERVER_ENTRY = resolve(fileURLToPath(import.meta.url), '../server-child.ts');
export const CHILD_START_MS = 60_000;
const CHILD_STOP_MS = 15_000;

export interface ServerProcess {
  readonly child: ChildProcess;
  /** The REST API. */
  readonly url: URL;
  /** The data API: its own port or a prefix of `url` (DATA_API_PORT, DATA_API_PREFIX). */
  readonly dataApiUrl: URL;
  readonly verifyWorkers: number;
  /** The signing domain of the server's configuration. */
  readonly domain: Eip712Domain;
  readonly dataDir: string;
  /** The server's SQLite store, for figures read after a run. */
  readonly storeFile: string;
  /** The settlement chain (CHAIN=devnet), or null. */
  readonly settlement: SettlementFacts | null;
}

export interface ServerProcessOptions {
  /** Prefix of the temporary data folder. */
  readonly name: string;
  /**
   * Environment on top of the benchmark defaults (silent logs, devnet without a settlement chain,
   * no order rate limits, port 0), e.g. DATA_API_AUTH, or CHAIN=devnet to settle.
   */
  readonly env: Readonly<Record<string, string>>;
  /** Writes a V8 CPU profile of the server there. */
  readonly cpuProfDir?: string | undefined;
  /** Takes the server's log lines (standard output); without it they go to this process's. */
  readonly logLines?: ((line: string) => void) | undefined;
}

/** Servers still running and their data folders: killed and removed if this process is interrupted. */
const children = new Map<ChildProcess, string>();

/**
 * The next message of `type` from a child process (the benchmark server's, or another child's
 * message union `M`); rejects when it reports `failed`, exits, or sends none within `timeoutMs`.
 */
export function nextMessage<T extends M['type'], M extends { type: string } = ChildMessage>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<M, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | undefined, message?: Extract<M, { type: T }>) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined || message === undefined) reject(error ?? new Error('no message'));
      else resolve(message);
    };
    const onMessage = (message: M | ChildMessage) => {
      if (message.type === type) done(undefined, message as Extract<M, { type: T }>);
      else if (message.type === 'failed' && 'message' in message) done(new Error(`child: ${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`child exited (${signal ?? code})`));
    const timer = setTimeout(() => done(new Error(`child sent no ${type} within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Sends a message to the server and waits for its answer of type `answer`. */
export function ask<T extends ChildMessage['type']>(
  server: ServerProcess,
  message: ParentMessage,
  answer: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  const reply = nextMessage(server.child, answer, CHILD_START_MS);
  server.child.send(message);
  return reply;
}

/** Starts a devnet server on 127.0.0.1 with a free port; resolves once it listens. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${options.name}-`));
  const profile = options.cpuProfDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`];
  const child = fork(SERVER_ENTRY, [], {
    execArgv: ['--import', 'tsx', ...profile],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      ORDER_RATE_LIMIT: 'off',
      NETWORK: 'devnet',
      // Intake, streams and the data API are measured without settlement; bench:settlement turns it on.
      CHAIN: 'off',
      ...options.env,
    },
    stdio: ['ignore', options.logLines === undefined ? 'inherit' : 'pipe', 'inherit', 'ipc'],
  });
  children.set(child, dataDir);
  if (options.logLines !== undefined && child.stdout !== null) {
    createInterface({ input: child.stdout }).on('line', options.logLines);
  }
  try {
    const ready = await nextMessage(child, 'ready', CHILD_START_MS);
    return {
      child,
      url: new URL(ready.url),
      dataApiUrl: new URL(ready.dataApiUrl),
      verifyWorkers: ready.verifyWorkers,
      domain: ready.domain,
      dataDir,
      storeFile: ready.storeFile,
      settlement: ready.settlement,
    };
  } catch (error) {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Kills the server and its own children (a devnet node would outlive it otherwise). */
function kill(child: ChildProcess): void {
  for (const pid of childProcesses(child.pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
  child.kill('SIGKILL');
}

/** Asks the server to close (it writes its CPU profile then, and stops its chain node) and kills it if it does not. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
    else child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), CHILD_STOP_MS);
    });
    if (await Promise.race([exited.then(() => false), late])) {
      kill(child);
      await exited;
    }
    clearTimeout(timer);
  }
  children.delete(child);
}

/** Stops the server (waiting for it to close) and removes its data folder. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  try {
    await stopChild(server.child);
  } finally {
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

/** Kills every server still running and removes its folder (on an interrupt or a crash of the benchmark). */
export function killChildren(): void {
  for (const [child, dataDir] of children) {
    kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
  children.clear();
}

/** Runs a benchmark's main: its exit code, and the servers killed on SIGINT/SIGTERM or a crash. */
export function runBenchmark(name: string, main: () => Promise<number>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killChildren();
      process.exit(130);
    });
  }
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      killChildren();
      console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 2;
    },
  );
}
