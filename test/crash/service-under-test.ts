import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { processLives } from '@dex/contracts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * `npm start`'s entry and the operator CLI, built (vitest's global setup and `npm run test:crash`
 * build what changed first), as an operator runs them.
 */
const DEVNET_MAIN = join(ROOT, 'packages/devnet/dist/main.js');
const OPERATOR_MAIN = join(ROOT, 'packages/server/dist/composition/operator-main.js');

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it answers something, up to `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A devnet account the operator CLI made: its id, address and private key (hex), which only the test's signer sees. */
export interface CreatedAccount {
  readonly accountId: string;
  readonly evmAddress: string;
  readonly keyType: 'ED25519' | 'ECDSA_SECP256K1';
  readonly privateKey: string;
}

/**
 * `npm start` with the market maker off, as an operator runs it: the service leads a process group
 * of its own (its devnet node another), on a fixed port and DATA_DIR so that clients keep their
 * address across restarts. Its output goes to `service.log` in DATA_DIR.
 */
export class ServiceUnderTest {
  private child: ChildProcess | null = null;
  readonly url: string;

  private constructor(
    readonly dataDir: string,
    readonly port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
  }

  static async open(dataDir: string): Promise<ServiceUnderTest> {
    const service = new ServiceUnderTest(dataDir, await freePort());
    await service.start();
    return service;
  }

  /** Starts the service and waits until `/health` answers 200. */
  async start(): Promise<void> {
    const log = openSync(join(this.dataDir, 'service.log'), 'a');
    try {
      this.child = spawn(process.execPath, [DEVNET_MAIN], {
        cwd: ROOT,
        detached: true,
        env: {
          ...process.env,
          DATA_DIR: this.dataDir,
          PORT: String(this.port),
          MARKET_MAKER: 'false',
          LOG_LEVEL: 'warn',
          VERIFY_WORKERS: '0',
          // Every block's receipts kept: a record naming a transaction the node does not have names
          // one the chain lost, not one past its history. Compaction as often as the service allows:
          // kills land around a compaction's restart.
          DEVNET_CHAIN_HISTORY_BLOCKS: '1000000',
          DEVNET_CHAIN_COMPACT_BLOCKS: '64',
        },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    this.child.unref();
    await this.healthy();
  }

  healthy(timeoutMs = 120_000): Promise<true> {
    return until(
      async () => ((await fetch(`${this.url}/health`, { signal: AbortSignal.timeout(2_000) })).ok ? true : undefined),
      'the service to answer /health',
      timeoutMs,
      25,
    );
  }

  /** kill -9 of the service's whole process group (its devnet node runs in a group of its own). */
  async killService(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await until(async () => (processLives(pid) ? undefined : true), 'the service to die', 10_000, 10);
    this.child = null;
  }

  nodePid(): number | null {
    const file = join(this.dataDir, 'devnet-chain.pid');
    if (!existsSync(file)) return null;
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  }

  /** kill -9 of the devnet node; answers its pid. */
  async killNode(): Promise<number> {
    const pid = this.nodePid();
    if (pid === null) throw new Error('no devnet node pid file');
    process.kill(pid, 'SIGKILL');
    await until(async () => (processLives(pid) ? undefined : true), 'the node to die', 10_000, 10);
    return pid;
  }

  /** Waits until a node other than `gone` runs and answers at the recorded address. */
  async nodeBack(gone: number, timeoutMs = 60_000): Promise<void> {
    await until(
      async () => {
        const pid = this.nodePid();
        if (pid === null || pid === gone || !processLives(pid)) return undefined;
        const answer = await fetch(this.chain().rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
          signal: AbortSignal.timeout(2_000),
        });
        return answer.ok ? true : undefined;
      },
      'the service to start its devnet node again',
      timeoutMs,
      25,
    );
  }

  chain(): { rpcUrl: string; reactor: `0x${string}`; chainId: number } {
    return JSON.parse(readFileSync(join(this.dataDir, 'devnet-chain.json'), 'utf8')) as {
      rpcUrl: string;
      reactor: `0x${string}`;
      chainId: number;
    };
  }

  /** The operator CLI's `pool add-liquidity` on the devnet chain: creates the pool on first use. */
  async addLiquidity(tokenA: string, tokenB: string, amountA: string, amountB: string): Promise<void> {
    const argv = [OPERATOR_MAIN, 'pool', 'add-liquidity', tokenA, tokenB, amountA, amountB];
    // The service stops and starts its node every 64 blocks here (compaction): a command caught by
    // that pause is run again, as an operator would.
    for (let attempt = 1; ; attempt++) {
      try {
        await run(process.execPath, argv, { cwd: ROOT, env: { ...process.env, DATA_DIR: this.dataDir, LOG_LEVEL: 'warn' } });
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
    }
  }

  /** The devnet faucet of the operator CLI: a new funded account, its key file in DATA_DIR. */
  async createAccount(keyType: 'ed25519' | 'secp256k1', name: string, amount: number): Promise<CreatedAccount> {
    const keyFile = join(this.dataDir, `${name}.key`);
    const args = ['account', 'create', '--key-type', keyType, '--key-file', keyFile, '--amount', String(amount), '--json'];
    const { stdout } = await run(process.execPath, [OPERATOR_MAIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: this.dataDir, LOG_LEVEL: 'warn' },
    });
    const created = JSON.parse(stdout) as Omit<CreatedAccount, 'privateKey'>;
    return { ...created, privateKey: readFileSync(keyFile, 'utf8').trim() };
  }

  /** SIGTERM (a clean stop, which stops the node too), then kill -9 of anything left. */
  async stop(): Promise<void> {
    const pid = this.child?.pid;
    // A service that died already (its group gone) has nothing to stop.
    if (pid !== undefined && processLives(pid)) {
      process.kill(-pid, 'SIGTERM');
      await until(async () => (processLives(pid) ? undefined : true), 'the service to stop', 30_000).catch(() =>
        process.kill(-pid, 'SIGKILL'),
      );
    }
    const node = this.nodePid();
    if (node !== null && processLives(node)) process.kill(node, 'SIGKILL');
    this.child = null;
  }
}
