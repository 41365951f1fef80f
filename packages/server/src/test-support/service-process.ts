import { type ChildProcess, fork } from 'node:child_process';
import { readPid } from '@dex/contracts';
import { devnetPidFile } from '../adapters/chain/devnet/embedded-devnet.js';
import { tempDataDir } from './temp-data-dir.js';

/** The log lines that say a process is ready: a server listens, an engine follows its log, a settler settles or stands by. */
const READY_MESSAGES = [
  'order book API listening',
  'engine following its command log',
  'settler running: settling fills and relaying cancellations',
  'standing by: another settler is active',
];

/** Node's flags for running TypeScript sources of the workspace (an entry given as a `.ts` file). */
const FROM_SOURCE = ['--import', 'tsx', '--conditions', 'source'];

/**
 * The built module of a workspace entry, `packages/NAME/src/X.ts` as `packages/NAME/dist/X.js`, as
 * `npm start` runs it; the suite's global setup builds the packages first when a source changed.
 * A process started from it takes seconds of a core less than one through tsx, which transpiles
 * every source it loads (the operator CLI: 0.8 s against 3.3 s): the suites start dozens of them.
 */
export function builtEntry(source: URL): URL {
  const built = source.href.replace(/\/packages\/([\w-]+)\/src\/(.+)\.ts$/, '/packages/$1/dist/$2.js');
  if (built === source.href) throw new Error(`${source.href} is not a TypeScript source under packages/NAME/src/`);
  return new URL(built);
}

const children = new Set<ChildProcess>();
/** Pid files of the devnet chain nodes the services started: a node runs in a process group of its own. */
const chainPidFiles = new Set<string>();
const folders: (() => void)[] = [];

export interface ServiceProcess {
  readonly dataDir: string;
  /** The service's process id (its memory is in /proc/<pid>/status). */
  readonly pid: number;
  /** Standard output and error so far. */
  readonly output: () => string;
  /** The API's base URL, from the "order book API listening" line; '' for an engine or a settler, once it says it runs. */
  readonly url: Promise<string>;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * A service's process entry run in a process of its own, on a fresh DATA_DIR and a free port, with
 * `nodeFlags` added to Node's own: a `main.ts` from source, a built `dist/*.js` as `npm start` runs
 * it; {@link cleanUpServiceProcesses} after each test.
 */
export function startServiceProcess(entry: URL, env: Record<string, string>, nodeFlags: readonly string[] = []): ServiceProcess {
  const data = tempDataDir();
  folders.push(data.remove);
  chainPidFiles.add(devnetPidFile(env.DATA_DIR ?? data.dir));
  const child = fork(entry, [], {
    detached: true,
    execArgv: entry.pathname.endsWith('.ts') ? [...FROM_SOURCE, ...nodeFlags] : [...nodeFlags],
    env: { ...process.env, DATA_DIR: data.dir, PORT: '0', LOG_LEVEL: 'info', VERIFY_WORKERS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.add(child);
  const chunks: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not listen in time:\n${chunks.join('')}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      chunks.push(chunk.toString());
      const line = chunks
        .join('')
        .split('\n')
        .find((text) => READY_MESSAGES.some((message) => text.includes(`"${message}"`)));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { url?: string }).url ?? '');
    });
    child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    void exited.then((code) => reject(new Error(`the service exited with ${code}:\n${chunks.join('')}`)));
  });
  if (child.pid === undefined) throw new Error('the service process did not start');
  return {
    dataDir: data.dir,
    pid: child.pid,
    output: () => chunks.join(''),
    url,
    stop: async () => {
      child.kill('SIGTERM');
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the service did not stop in time')), 20_000),
      );
      return Promise.race([exited, timeout]);
    },
  };
}

/** Kills the services still running, and their chain nodes, and removes their folders: for `afterEach`. */
export function cleanUpServiceProcesses(): void {
  // Each service leads a process group of its own with its chain node: a failed test kills both.
  for (const child of children) {
    try {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  children.clear();
  // The chain node outlives its service by design (a restarted service reattaches): kill it too.
  for (const pidFile of chainPidFiles) {
    const pid = readPid(pidFile);
    try {
      if (pid !== null) process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  chainPidFiles.clear();
  for (const remove of folders.splice(0)) remove();
}
