import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519Signer, type Signer, secp256k1Signer } from '@dex/sdk';
import { createLogger, loadConfig, type RunningServer, startServer } from '@dex/server';
import { runOperatorOn } from '@dex/server/test-support';
import type { BotLogger } from '../logger.js';

export { issueApiKey } from '@dex/server/test-support';

/** The devnet seed's tokens priced in USD: WHBAR 0.25, USDC 1, SAUCE 0.05 (so SAUCE/WHBAR starts at 0.2). */
export const TEST_REFERENCE_PRICES = { '0.0.1001': '0.25', '0.0.1002': '1', '0.0.1003': '0.05' } as const;

export interface BotServer {
  readonly server: RunningServer;
  /** The same across restarts. */
  readonly url: string;
  readonly dataDir: string;
  /** An Ed25519 ledger account (the maker) and a secp256k1 ledger account (the taker), both registered. */
  readonly maker: Signer;
  readonly taker: Signer;
  /**
   * Runs an operator CLI command on the server's store and has the server load the change at once
   * (the CLI's own process would be noticed within a second; this one shares the store connection).
   */
  operator(...args: string[]): Promise<void>;
  /** Stops the server, runs `whileDown`, and starts it again on the same port and data folder. */
  restart(whileDown: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/**
 * The real order book API on loopback (port 0 unless `env` says otherwise), its store in a fresh
 * folder, settlement off unless `env` sets CHAIN, and two accounts made with the operator CLI's
 * devnet faucet (`account create`), as a user would make them.
 */
export async function startBotServer(env: Record<string, string> = {}): Promise<BotServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dex-bot-test-'));
  try {
    const baseEnv = {
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      CHAIN: 'off',
      VERIFY_WORKERS: '0',
      ...env,
    };
    const open = (port: string) => startServer(loadConfig({ ...baseEnv, PORT: port }), createLogger('silent'));
    let server = await open(baseEnv.PORT);
    const account = async (keyType: 'ed25519' | 'secp256k1') => {
      const keyFile = join(dataDir, `${keyType}.key`);
      const args = ['account', 'create', '--key-type', keyType, '--key-file', keyFile, '--no-fund', '--json'];
      const { code, out } = await runOperatorOn(server, ...args);
      if (code !== 0) throw new Error(`account create failed: ${out}`);
      return { accountId: (JSON.parse(out) as { accountId: string }).accountId, key: (await readFile(keyFile, 'utf8')).trim() };
    };
    const maker = await account('ed25519');
    const taker = await account('secp256k1');
    return {
      get server() {
        return server;
      },
      url: server.url,
      dataDir,
      maker: ed25519Signer(maker.key, { account: maker.accountId }),
      taker: secp256k1Signer(taker.key, { account: taker.accountId }),
      operator: async (...args) => {
        const { code, out } = await runOperatorOn(server, ...args);
        if (code !== 0) throw new Error(`${args.join(' ')} failed: ${out}`);
        await server.services.registry.load();
      },
      restart: async (whileDown) => {
        await server.close();
        await whileDown();
        server = await open(new URL(server.url).port);
      },
      close: async () => {
        try {
          await server.close();
        } finally {
          await rm(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A logger that keeps every line, for tests that read what the bot reported. */
export function recordingLogger(): BotLogger & { lines: { level: string; message: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn') };
}

/** Polls `check` every 20 ms until it returns a value; fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
