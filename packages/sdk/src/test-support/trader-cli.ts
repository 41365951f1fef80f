import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { runTrader, type TraderIo } from '../cli/trader.js';
import type { FetchFn } from '../client.js';
import type { DepthLevel } from '../types.js';
import { recordingFetch, startTestServer, type TestServer } from './server.js';

/** What one run of the trader CLI wrote, and its exit code. */
export interface TraderRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** One HTTP answer the CLI received. */
export interface RecordedAnswer {
  readonly url: string;
  readonly status: number;
  /** The body exactly as it came over the wire. */
  readonly body: string;
  readonly requestId: string | null;
}

/** The global fetch, recording every request (as {@link recordingFetch}) and every answer's body. */
export function answerRecordingFetch(): ReturnType<typeof recordingFetch> & { answers: RecordedAnswer[] } {
  const recorder = recordingFetch();
  const answers: RecordedAnswer[] = [];
  return {
    ...recorder,
    answers,
    fetch: async (url, init) => {
      const response = await recorder.fetch(url, init);
      answers.push({
        url,
        status: response.status,
        body: await response.clone().text(),
        requestId: response.headers.get('x-request-id'),
      });
      return response;
    },
  };
}

/** The access tokens a recorded client sent: what must never show in the CLI's output. */
export function sentTokens(headers: readonly Headers[]): string[] {
  return headers.flatMap((header) => {
    const value = header.get('authorization');
    return value?.startsWith('Bearer ') ? [value.slice('Bearer '.length)] : [];
  });
}

export interface TraderRunOptions {
  /** Added to (and overriding) the runner's environment; an undefined value removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => number;
  readonly fetch?: FetchFn;
  readonly isTerminal?: boolean;
  readonly signal?: AbortSignal;
  /** Called with each line written to stdout, as it is written. */
  readonly onOut?: (text: string) => void;
}

/**
 * Runs the trader CLI in-process as a shell would: its own state folder (for stored sessions) and
 * environment. Everything any run writes is kept in `written`, so a test can check at the end that
 * no key or token ever reached the output.
 */
export class TraderCli {
  readonly written: string[] = [];

  private constructor(
    readonly stateDir: string,
    private readonly env: Readonly<Record<string, string | undefined>>,
  ) {}

  static async create(apiUrl: string): Promise<TraderCli> {
    const stateDir = await mkdtemp(join(tmpdir(), 'dex-trade-test-'));
    return new TraderCli(stateDir, { DEX_API_URL: apiUrl, DEX_STATE_DIR: stateDir });
  }

  async run(argv: readonly string[], options: TraderRunOptions = {}): Promise<TraderRun> {
    const out: string[] = [];
    const err: string[] = [];
    const env = Object.fromEntries(
      Object.entries({ ...this.env, ...options.env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const io: TraderIo = {
      out: (text) => {
        out.push(text);
        this.written.push(text);
        options.onOut?.(text);
      },
      err: (text) => {
        err.push(text);
        this.written.push(text);
      },
      env,
      now: options.now ?? Date.now,
      fetch: options.fetch,
      isTerminal: options.isTerminal,
      signal: options.signal,
    };
    const code = await runTrader(argv, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** A private key file as `account create --key-file` writes it: hex and a newline. */
  async keyFile(name: string, hex: string, mode = 0o600): Promise<string> {
    const path = join(this.stateDir, name);
    await writeFile(path, `${hex}\n`);
    // Set after writing: the umask would otherwise narrow the mode a test asks for.
    await chmod(path, mode);
    return path;
  }

  async close(): Promise<void> {
    await rm(this.stateDir, { recursive: true, force: true });
  }
}

/** The levels of a ladder the CLI printed, `[price, size]` best first on each side, as GET /depth lists them. */
export function ladderLevels(text: string): { asks: DepthLevel[]; bids: DepthLevel[] } {
  const rows = text.split('\n').map((line) => line.trim().split(/\s+/));
  const side = (name: string) =>
    rows.filter(([kind]) => kind === name).map(([, price = '', size = '']): DepthLevel => [price, size]);
  return { asks: side('ask').reverse(), bids: side('bid') };
}

/** The real server and a trader CLI pointed at it, shared by the tests of one file. */
export interface ServedCli {
  readonly api: TestServer;
  readonly cli: TraderCli;
}

/**
 * Starts the real server on loopback (and runs `seed` on it) before the file's tests, with a
 * {@link TraderCli} of its own state folder, and stops both after them. Read the fields inside tests.
 * `env` is the server's (`{ CHAIN: 'devnet' }` for the devnet chain and its pools).
 */
export function serveTraderCli(
  seed: (api: TestServer) => Promise<unknown> = async () => {},
  env: Record<string, string> = {},
): ServedCli {
  const served: { api?: TestServer; cli?: TraderCli } = {};
  beforeAll(async () => {
    served.api = await startTestServer(env);
    served.cli = await TraderCli.create(served.api.url);
    await seed(served.api);
  });
  afterAll(async () => {
    await served.cli?.close();
    await served.api?.close();
  });
  return served as ServedCli;
}

/** `label  value` lines of a plain command output, as a record. */
export function fieldsOf(out: string): Record<string, string> {
  return Object.fromEntries(
    out.split('\n').map((line) => [
      line.split(/\s{2,}/)[0],
      line
        .split(/\s{2,}/)
        .slice(1)
        .join('  '),
    ]),
  );
}
