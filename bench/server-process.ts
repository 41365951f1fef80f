/**
 * The benchmarks' server: bench/support/server-child.ts in a child process with an IPC channel, on an
 * empty store in a temporary DATA_DIR, so the client's work does not share its event loop.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildMessage, ParentMessage } from './support/server-child.js';

const SERVER_ENTRY = resolve(fileURLToPath(import.meta.url), '../support/server-child.ts');
export const CHILD_START_MS = 60_000;
const CHILD_STOP_MS = 15_000;

export type ReadyMessage = Extract<ChildMessage, { type: 'ready' }>;

export interface ServerChild {
  readonly child: ChildProcess;
  readonly ready: ReadyMessage;
  readonly dataDir: string;
}

/** Servers still running and their data folders: killed and removed if the benchmark is interrupted. */
const children = new Map<ChildProcess, string>();

export function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
  timeoutMs: number,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | undefined, message?: Extract<ChildMessage, { type: T }>) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined || message === undefined) reject(error ?? new Error('no message'));
      else resolve(message);
    };
    const onMessage = (message: ChildMessage) => {
      if (message.type === type) done(undefined, message as Extract<ChildMessage, { type: T }>);
      else if (message.type === 'failed') done(new Error(`server: ${message.message}`));
    };
    const onExit = (code: number | null, signal: string | null) => done(new Error(`server exited (${signal ?? code})`));
    const timer = setTimeout(() => done(new Error(`server sent no ${type} within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/** Starts a devnet server on 127.0.0.1 with a free port, silent logs and `env` on top; resolves once it listens. */
export async function startServerChild(
  name: string,
  env: Readonly<Record<string, string>>,
  execArgv: readonly string[] = [],
): Promise<ServerChild> {
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const child = fork(SERVER_ENTRY, [], {
    execArgv: ['--import', 'tsx', ...execArgv],
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', NETWORK: 'devnet', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.set(child, dataDir);
  try {
    return { child, ready: await nextMessage(child, 'ready', CHILD_START_MS), dataDir };
  } catch (error) {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Asks the server to close (it writes its CPU profile then) and kills it if it does not. */
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
      child.kill('SIGKILL');
      await exited;
    }
    clearTimeout(timer);
  }
  children.delete(child);
}

/** Stops the server and removes its data folder. */
export async function stopServerChild(server: Pick<ServerChild, 'child' | 'dataDir'>): Promise<void> {
  try {
    await stopChild(server.child);
  } finally {
    rmSync(server.dataDir, { recursive: true, force: true });
  }
}

/** Kills every server still running and removes its data (on an interrupt or a failure). */
export function killChildren(): void {
  for (const [child, dataDir] of children) {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
  children.clear();
}

/**
 * Runs a benchmark's main: its answer becomes the exit code; an interrupt or a failure kills the
 * servers it left running first.
 */
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
