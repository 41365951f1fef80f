import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ed25519Signer, type Signer, secp256k1Signer } from '@dex/sdk';
import { type Harness, RealTimeClock, runOperatorOn, startHarness, until } from '@dex/server/test-support';
import type { BotLogger } from '../logger.js';
import type { MarketMakerOptions } from '../options.js';

export { issueApiKey } from '@dex/server/test-support';

/** The devnet seed's tokens priced in USD: WHBAR 0.25, USDC 1, SAUCE 0.05 (so SAUCE/WHBAR starts at 0.2). */
export const TEST_REFERENCE_PRICES = { '0.0.1001': '0.25', '0.0.1002': '1', '0.0.1003': '0.05' } as const;

export interface BotServer {
  /** The real API on loopback (a port that stays across restarts), settlement off unless `env` sets CHAIN. */
  readonly harness: Harness;
  /** An Ed25519 ledger account (the maker) and a secp256k1 ledger account (the taker), made with the operator CLI. */
  readonly maker: Signer;
  readonly taker: Signer;
  /**
   * Runs an operator CLI command on the server's store and has the server load the change at once
   * (the CLI's own process would be noticed within a second; this one shares the store connection).
   */
  operator(...args: string[]): Promise<void>;
}

export interface BotServerOptions {
  /**
   * How the faucet funds the two accounts: `none` (the default: no chain, or funded later) or,
   * on the devnet chain, `without-approvals`: gas and tokens, the Permit2 steps left to the account.
   */
  readonly funding?: 'none' | 'without-approvals';
}

/** The server for a bot, with its two accounts made by the devnet faucet (`account create`), as a user would. */
export async function startBotServer(env: Record<string, string> = {}, options: BotServerOptions = {}): Promise<BotServer> {
  const harness = await startHarness({ LOG_LEVEL: 'silent', ...env }, { listen: true, clock: new RealTimeClock() });
  const operator = async (...args: string[]) => {
    const { code, out } = await runOperatorOn(harness, ...args);
    if (code !== 0) throw new Error(`${args.join(' ')} failed: ${out}`);
    return out;
  };
  const account = async (keyType: 'ed25519' | 'secp256k1') => {
    const keyFile = join(harness.config.dataDir, `${keyType}.key`);
    // A million of each token: the ladders of three books hold far more than the faucet's default.
    const funding = options.funding === 'without-approvals' ? ['--no-approve', '--amount', '1000000'] : ['--no-fund'];
    const out = await operator('account', 'create', '--key-type', keyType, '--key-file', keyFile, ...funding, '--json');
    return { account: (JSON.parse(out) as { accountId: string }).accountId, key: (await readFile(keyFile, 'utf8')).trim() };
  };
  try {
    const maker = await account('ed25519');
    const taker = await account('secp256k1');
    return {
      harness,
      maker: ed25519Signer(maker.key, { account: maker.account }),
      taker: secp256k1Signer(taker.key, { account: taker.account }),
      operator: async (...args) => {
        await operator(...args);
        await harness.services.registry.load();
      },
    };
  } catch (error) {
    await harness.close();
    throw error;
  }
}

/** A logger that keeps every line, for tests that read what the bot reported. */
/** A bot on the test server with quick refreshes and no taking, seeded; `options` override. */
export function quickBotOptions(server: BotServer, options: Partial<MarketMakerOptions> = {}): MarketMakerOptions {
  return {
    baseUrl: server.harness.url,
    maker: server.maker,
    taker: server.taker,
    referencePrices: TEST_REFERENCE_PRICES,
    intervalMs: 50,
    takeProbability: 0,
    seed: 7,
    maxBackoffMs: 200,
    ...options,
  };
}

export function recordingLogger(): BotLogger & { lines: { level: string; message: string; fields: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields: Record<string, unknown> }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn') };
}

/** Polls `check` every 20 ms until it returns a value; fails after `timeoutMs`. */
export function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  return until(check, what, timeoutMs, 20);
}
