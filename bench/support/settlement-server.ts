/**
 * bench:settlement's server: the service with CHAIN=devnet in a child process (server-process.ts),
 * its warnings counted; and the book's pool, made on its devnet chain with the operator CLI run as
 * its own process on the server's DATA_DIR, as `npm run cli -- pool add-liquidity` does.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Account } from './accounts.js';
import { HttpClient } from './http-client.js';
import { BENCH_BOOK, type Market } from './market.js';
import { type ServerProcess, startServerProcess, stopServerProcess } from './server-process.js';
import { STREAM_IN_FLIGHT } from './settlement-orders.js';

/** The operator CLI as `npm run cli` runs it (built by `npm run bench:settlement` before it starts). */
const OPERATOR_CLI = resolve(fileURLToPath(import.meta.url), '../../../packages/server/dist/composition/operator-main.js');
const POOL_WAIT_MS = 30_000;

export interface Server extends ServerProcess {
  readonly client: HttpClient;
  readonly settlementChain: NonNullable<ServerProcess['settlement']>;
  /** Warnings and errors the server logged, by message. */
  readonly logged: Map<string, number>;
}

export interface ServerOptions {
  /** SETTLEMENT_BATCH_FILLS and SETTLEMENT_TX_GAS_LIMIT of the server; undefined: its defaults. */
  readonly batchFills: number | undefined;
  readonly txGasLimit: number | undefined;
  /** Where the server writes a V8 CPU profile when it stops. */
  readonly cpuProfDir: string | undefined;
  /** Echo the server's warnings as they come (they are always counted and printed at the end). */
  readonly serverLog: boolean;
}

/** The server with CHAIN=devnet, its warnings and errors counted by message (echoed with --server-log). */
export async function startServer(options: ServerOptions): Promise<Server> {
  const logged = new Map<string, number>();
  const process_ = await startServerProcess({
    name: 'settlement',
    env: {
      CHAIN: 'devnet',
      LOG_LEVEL: 'warn',
      // The service's histograms, read over IPC (a free port: nothing listens on a fixed one).
      METRICS_PORT: '0',
      ...(options.batchFills === undefined ? {} : { SETTLEMENT_BATCH_FILLS: String(options.batchFills) }),
      ...(options.txGasLimit === undefined ? {} : { SETTLEMENT_TX_GAS_LIMIT: String(options.txGasLimit) }),
    },
    cpuProfDir: options.cpuProfDir,
    logLines: (line) => {
      const message = logMessage(line);
      logged.set(message, (logged.get(message) ?? 0) + 1);
      if (options.serverLog) process.stderr.write(`  server: ${message}\n`);
    },
  });
  if (process_.settlement === null) {
    await stopServerProcess(process_);
    throw new Error('the server started without its settlement chain');
  }
  return { ...process_, client: new HttpClient(process_.url, STREAM_IN_FLIGHT), settlementChain: process_.settlement, logged };
}

/** A JSON log line as its message, its `reason` and the reactor's when it names them, and for an error the first lines of its cause. */
function logMessage(line: string): string {
  try {
    const entry = JSON.parse(line) as {
      msg?: unknown;
      reason?: unknown;
      reactor?: unknown;
      err?: { shortMessage?: unknown; message?: unknown };
    };
    const cause = entry.err?.shortMessage ?? entry.err?.message;
    const reasons = [entry.reason, entry.reactor].filter((reason) => reason !== undefined).map(String);
    const reason = reasons.length === 0 ? '' : ` (${reasons.join(', ')})`;
    return `${String(entry.msg ?? line)}${reason}${cause === undefined ? '' : `: ${String(cause).split('\n').slice(0, 3).join(' ')}`}`;
  } catch {
    return line; // not a JSON log line: counted as it is
  }
}

export function printLogged(server: Server): void {
  for (const [message, times] of server.logged) console.log(`server logged ${times}x: ${message}`);
}

/** Tokens of a pool deposit, in whole units (the CLI's operands). */
export interface PoolDeposit {
  readonly base: string;
  readonly quote: string;
}

/** The pool as the CLI lists it after the deposit. */
export interface PoolFacts {
  readonly pair: string;
  readonly reserve0: string;
  readonly reserve1: string;
}

/**
 * Deposits into the pool of the book's two tokens (made if missing) with the operator CLI, in its
 * own process on the server's store and devnet chain; the devnet issuer mints the tokens.
 */
export async function addLiquidity(server: Server, symbols: readonly [string, string], deposit: PoolDeposit): Promise<PoolFacts> {
  const run = promisify(execFile);
  const env = { ...process.env, DATA_DIR: server.dataDir, NETWORK: 'devnet', LOG_LEVEL: 'warn' };
  const cli = (...argv: string[]) => run(process.execPath, [OPERATOR_CLI, ...argv, '--json'], { env, timeout: 60_000 });
  await cli('pool', 'add-liquidity', symbols[0], symbols[1], deposit.base, deposit.quote);
  const pools = JSON.parse((await cli('pool', 'list')).stdout) as { pair: string; reserve0: string; reserve1: string }[];
  const pool = pools[0];
  if (pools.length !== 1 || pool === undefined) throw new Error(`the CLI lists ${pools.length} pools, expected the bench's one`);
  return pool;
}

/**
 * Waits until the book's engine trades with the pool: a fresh quote (a caller with a JWT) for a
 * little base costs less with the pool than on the book alone. Both say isAMMEnabled: quotes
 * include the pool by default at acffb5a, and only when asked after it.
 */
export async function poolInEngine(server: Server, market: Market, trader: Account): Promise<void> {
  const url = `/books/${BENCH_BOOK.id}/quote/exact-output?outputToken=${market.base}&outputAmount=${market.grid.baseAmount(2)}`;
  const until = performance.now() + POOL_WAIT_MS;
  for (;;) {
    const quote = (bookAlone: boolean) =>
      server.client.json<{ expectedInputAmount: string }>('GET', `${url}&isAMMEnabled=${!bookAlone}`, undefined, trader.token);
    const [withPool, alone] = await Promise.all([quote(false), quote(true)]);
    if (BigInt(withPool.expectedInputAmount) < BigInt(alone.expectedInputAmount)) return;
    if (performance.now() > until)
      throw new Error(`book ${BENCH_BOOK.id}'s quotes left out the pool for ${POOL_WAIT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
