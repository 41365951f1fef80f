/**
 * The server of bench/settlement.ts, in its own process: the real service with settlement on the
 * embedded devnet chain (CHAIN=devnet starts anvil and deploys the reactor), configured from the
 * environment like main.ts. Started by the benchmark with an IPC channel.
 *
 * Messages from the parent: `register` (raw Ed25519 public keys: each becomes a devnet account,
 * its key published in the 0x16a registry the reactor checks), `fund` (test tokens and the reactor
 * allowance for EVM addresses, through the devnet issuer) and `stop`. It answers `ready` with what
 * the benchmark reads afterwards (the API's URL, the chain's RPC URL and reactor, the store file),
 * `registered` with the new accounts (id and EVM address), `funded`, and `failed` with a message.
 */
import { rmSync } from 'node:fs';
import { DevnetAccountKeys } from '../packages/server/src/accounts/devnet-account-keys.js';
import { DevnetIssuer } from '../packages/server/src/chain/devnet-issuer.js';
import { readDevnetRecord } from '../packages/server/src/chain/embedded-devnet.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createLogger } from '../packages/server/src/logging.js';
import { type RunningServer, startServer } from '../packages/server/src/server.js';
import { storeFile } from '../packages/server/src/services.js';

export type ParentMessage =
  | { type: 'register'; publicKeys: string[] }
  | { type: 'fund'; accounts: string[]; tokens: { token: string; amount: string }[] }
  | { type: 'stop' };

export interface ServerFacts {
  readonly url: string;
  readonly rpcUrl: string;
  readonly reactor: string;
  readonly storeFile: string;
  readonly batchFills: number;
  readonly txGasLimit: number;
}

export type ChildMessage =
  | ({ type: 'ready' } & ServerFacts)
  | { type: 'registered'; accounts: { accountId: string; evmAddress: string }[] }
  | { type: 'funded' }
  | { type: 'failed'; message: string };

function tell(message: ChildMessage): void {
  process.send?.(message);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function issuerOf(server: RunningServer): DevnetIssuer {
  const settlement = server.services.settlement;
  if (settlement === null) throw new Error('settlement is off: run with CHAIN=devnet');
  return DevnetIssuer.of(settlement.chain);
}

async function register(server: RunningServer, publicKeys: readonly string[]) {
  const { store, clock } = server.services;
  const accounts = new DevnetAccountKeys(store.accountKeys);
  const tokenIds = new Set((await store.tokens.list()).map((token) => token.id));
  const issuer = issuerOf(server);
  const registered: { accountId: string; evmAddress: string }[] = [];
  for (const hex of publicKeys) {
    const record = await accounts.registerNew('ED25519', Uint8Array.from(Buffer.from(hex, 'hex')), clock.now(), tokenIds);
    await issuer.publishKey(record);
    registered.push({ accountId: record.accountId, evmAddress: record.evmAddress });
  }
  return registered;
}

async function fund(server: RunningServer, message: Extract<ParentMessage, { type: 'fund' }>): Promise<void> {
  const issuer = issuerOf(server);
  const tokens = message.tokens.map(({ token, amount }) => ({ token, amount: BigInt(amount) }));
  for (const account of message.accounts) await issuer.fund(account, tokens);
}

async function main(): Promise<void> {
  if (process.send === undefined)
    throw new Error('bench/settlement-server.ts is started by bench/settlement.ts with an IPC channel');
  const config = loadConfig(process.env);
  if (config.chain.kind !== 'devnet') throw new Error('bench/settlement-server.ts needs CHAIN=devnet');
  const { settlement } = config.chain;
  const server = await startServer(config, createLogger(config.logLevel));
  const record = readDevnetRecord(config.dataDir);
  if (record === null) throw new Error('the devnet chain left no record in DATA_DIR');
  let stopping = false;
  const stop = (code: number, removeData: boolean) => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => {
        if (removeData) rmSync(config.dataDir, { recursive: true, force: true });
        process.exit(code);
      },
      () => process.exit(1),
    );
  };
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') return stop(0, false);
    const work = message.type === 'register' ? register(server, message.publicKeys) : fund(server, message);
    work.then(
      (accounts) => tell(accounts === undefined ? { type: 'funded' } : { type: 'registered', accounts }),
      (error: unknown) => tell({ type: 'failed', message: messageOf(error) }),
    );
  });
  // The benchmark went away without saying stop: do not outlive it, nor leave its temporary store behind.
  process.on('disconnect', () => stop(1, true));
  tell({
    type: 'ready',
    url: server.url,
    rpcUrl: record.rpcUrl,
    reactor: record.reactor,
    storeFile: storeFile(config),
    batchFills: settlement.batchFills,
    txGasLimit: settlement.txGasLimit,
  });
}

main().catch((error: unknown) => {
  tell({ type: 'failed', message: messageOf(error) });
  process.exit(1);
});
