import { join } from 'node:path';
import {
  type DevnetClients,
  DevnetNode,
  type DevnetNodeOptions,
  type DevnetWallet,
  devnetClients,
  findAnvil,
  fund,
  installPermit2,
  PartialFillLimitOrderReactor,
} from '@dex/contracts';
import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { Logger } from '../../../ports/logger.js';
import type { Store } from '../../../ports/store/ports.js';
import { localSecret } from '../../secrets/local-secret.js';
import type { ChainSettings } from '../chain-config.js';
import type { ChainContext } from '../chain-context.js';
import { DEVNET_RECORD_FILE, type DevnetRecord, readDevnetRecord, writeDevnetRecord } from '../devnet-record.js';
import { keepAliveFetch } from '../keep-alive-fetch.js';
import { operatorAccount } from '../operator-account.js';
import { openDevnetAmm } from './devnet-amm.js';
import { DevnetIssuer } from './devnet-issuer.js';

/** How often the service checks that its devnet node runs, and starts it again if not. */
const NODE_CHECK_MS = 1_000;

/** The record, or null if it is missing or unreadable (a start then deploys afresh if it must). */
function recordOrNull(dataDir: string, logger: Logger): DevnetRecord | null {
  try {
    return readDevnetRecord(dataDir);
  } catch (error) {
    logger.warn({ err: error }, `unreadable ${DEVNET_RECORD_FILE}: starting as if it were absent`);
    return null;
  }
}

/** The devnet operator's key: generated once and kept in DATA_DIR (owner-only). */

/** Where the devnet's chain node, which runs apart from the service, records its process id. */
export function devnetPidFile(dataDir: string): string {
  return join(dataDir, 'devnet-chain.pid');
}
export function devnetOperatorKey(dataDir: string): Hex {
  return localSecret(join(dataDir, 'devnet-operator-key'), () => generatePrivateKey()) as Hex;
}

/** How the service starts and supervises its devnet node: in DATA_DIR, with a bounded history. */
function nodeOptions(
  config: ChainSettings & { chain: { kind: 'devnet' } },
  recorded: DevnetRecord | null,
  logger: Logger,
  onRestart: (head: bigint) => void,
): DevnetNodeOptions {
  return {
    chainId: config.chainId,
    stateFile: join(config.dataDir, 'devnet-chain-state.json'),
    pidFile: devnetPidFile(config.dataDir),
    orphanGraceMs: config.chain.orphanGraceMs,
    rpcUrl: recorded?.chainId === config.chainId ? recorded.rpcUrl : undefined,
    logFile: join(config.dataDir, 'devnet-chain.log'),
    log: logger,
    stateIntervalSeconds: config.chain.stateIntervalSeconds,
    historyBlocks: config.chain.historyBlocks,
    compactEveryBlocks: config.chain.compactEveryBlocks,
    ...(config.chain.pastStates === 0 ? {} : { pastStates: config.chain.pastStates }),
    port: config.chain.port,
    // Each transaction is a block of its own; with room for two settlement transactions a block's
    // gas target (half its limit) is never exceeded, so full batches back to back never raise the
    // base fee (by 1/8 a block at most) until the operator cannot pay for gas.
    gasLimit: Math.max(30_000_000, 2 * config.chain.settlement.txGasLimit),
    binary: findAnvil(config.chain.anvil),
    superviseMs: NODE_CHECK_MS,
    onRestart,
  };
}

/**
 * Starts the embedded devnet chain: an anvil node on loopback with its state in DATA_DIR. On the
 * first boot it deploys the reactor (operator and fee recipient: the devnet operator) and, once the
 * tokens are there, the AMM (see openDevnetAmm); later boots reuse what the record names. Every
 * boot installs what is missing: the key registry at 0x16a, the registry's tokens as devnet ERC-20s
 * at their ledger addresses, and the keys of the devnet's Ed25519 accounts.
 */
export async function openEmbeddedDevnet(
  config: ChainSettings & { chain: { kind: 'devnet' } },
  store: Store,
  logger: Logger,
): Promise<ChainContext> {
  const recorded = recordOrNull(config.dataDir, logger);
  // Bound once the chain is set up: a node started again may come from a state before the installs.
  let reinstall = (_head: bigint): void => {};
  const node = await DevnetNode.start(nodeOptions(config, recorded, logger, (head) => reinstall(head)));
  try {
    const clients = devnetClients(node.rpcUrl, config.chainId, keepAliveFetch());
    const headAtStart = await clients.public.getBlockNumber();
    const operator = clients.wallet(operatorAccount(devnetOperatorKey(config.dataDir)));
    await fund(clients, operator.account.address);
    const reactor = await reactorOf(clients, operator, config, recorded, logger);
    const record: DevnetRecord = { chainId: config.chainId, reactor, rpcUrl: node.rpcUrl };
    // The recorded AMM stays named until this boot knows better: a crash in between must not forget it.
    writeDevnetRecord(config.dataDir, recorded?.amm === undefined ? record : { ...record, amm: recorded.amm });
    const wrappedNative = config.wrappedNativeAddress === null ? null : getAddress(config.wrappedNativeAddress);
    const issuer = new DevnetIssuer(clients, reactor);
    const install = async () => {
      await issuer.installKeyRegistry();
      for (const token of await store.tokens.list()) await issuer.installToken(token, wrappedNative);
      for (const account of await store.accountKeys.list()) await issuer.publishKey(account);
    };
    await install();
    const amm = await openDevnetAmm({
      clients,
      operator,
      issuer,
      reactor,
      sauce: await protocolTokenAddress(config, store),
      recorded: recorded?.amm,
      logger,
    }).catch((error: unknown) => {
      logger.error({ err: error }, 'the AMM could not be set up: the devnet runs without pools and farms');
      return null;
    });
    // A failed set-up keeps the recorded AMM for the next boot to try again.
    if (amm !== null) writeDevnetRecord(config.dataDir, { ...record, amm });
    const restartListeners: ((head: bigint) => void)[] = [];
    // The head of the state the node loaded, not one read from it: the settler and the cancel relay
    // send as soon as it answers, and a block they get mined first would hide the lost ones below it.
    reinstall = (head) => {
      for (const listener of restartListeners) listener(head);
      install().catch((error: unknown) => logger.error({ err: error }, 'setting up the restarted devnet node failed'));
    };
    logger.info({ rpcUrl: node.rpcUrl, reactor, amm }, 'devnet chain running');
    return {
      public: clients.public,
      operator,
      reactor,
      chainId: config.chainId,
      headAtStart,
      indexFrom: 0n,
      amm,
      wrappedNative,
      devnet: clients,
      restarts: { subscribe: (listener) => restartListeners.push(listener) },
      close: () => node.stop(),
    };
  } catch (error) {
    await node.stop();
    throw error;
  }
}

/**
 * Role changes on the devnet's reactor wait nothing: its one operator key is the devnet's own, and
 * a devnet that lost its AMM points the reactor at a new one at once. A deployment on a real chain
 * waits (two days, docs/security.md), so a stolen owner key shows its hand before it takes over.
 */
const DEVNET_CHANGE_DELAY_SECONDS = 0n;

/**
 * Refuses a recorded reactor of an earlier version: one from before Permit2 pulls funds by direct
 * allowances, which clients that onboard as the live service asks never give. Its orders are
 * signed for it, so it cannot be swapped for a new one under them; the devnet has to start afresh.
 */
async function assertCurrentReactor(clients: DevnetClients, reactor: Address): Promise<void> {
  try {
    await clients.public.readContract({ address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'permit2' });
  } catch (error) {
    throw new Error(
      `the devnet chain in DATA_DIR has a reactor (${reactor}) from an earlier version, which does not settle through Permit2: ` +
        'start with an empty DATA_DIR (move the old one away)',
      { cause: error },
    );
  }
}

/**
 * The recorded reactor while it has code; else a new one, deployed by the operator (its owner),
 * pulling through Permit2 at its canonical address.
 */
async function reactorOf(
  clients: DevnetClients,
  operator: DevnetWallet,
  config: ChainSettings,
  recorded: DevnetRecord | null,
  logger: Logger,
): Promise<Address> {
  const permit2 = await installPermit2(clients);
  const code = recorded === null ? undefined : await clients.public.getCode({ address: recorded.reactor });
  if (recorded !== null && code !== undefined && code !== '0x') {
    await assertCurrentReactor(clients, recorded.reactor);
    return recorded.reactor;
  }
  const { address } = operator.account;
  const hash = await operator.deployContract({
    abi: PartialFillLimitOrderReactor.abi,
    bytecode: PartialFillLimitOrderReactor.bytecode,
    args: [config.signatureDomainName, config.signatureDomainVersion, permit2, DEVNET_CHANGE_DELAY_SECONDS, address, address],
  });
  const receipt = await clients.public.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('the reactor deployment created no contract');
  const reactor = getAddress(receipt.contractAddress);
  logger.info({ reactor, permit2 }, 'deployed the reactor on the devnet chain');
  return reactor;
}

/** The EVM address of the protocol token (the data API's PROTOCOL_TOKEN_ID), if the registry has it. */
async function protocolTokenAddress(config: ChainSettings, store: Store): Promise<Address | null> {
  const id = config.dataApi.protocolTokenId;
  if (id === null) return null;
  const token = (await store.tokens.list()).find((candidate) => candidate.id === id);
  return token === undefined ? null : getAddress(token.evmAddress);
}
