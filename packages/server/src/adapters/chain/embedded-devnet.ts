import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DevnetNode, devnetClients, findAnvil, fund, PartialFillLimitOrderReactor, writeFileAtomic } from '@dex/contracts';
import { type Address, getAddress, type Hex } from 'viem';
import { generatePrivateKey } from 'viem/accounts';
import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
import { localSecret } from '../secrets/local-secret.js';
import type { ChainSettings } from './chain-config.js';
import type { ChainContext } from './chain-context.js';
import { DevnetIssuer } from './devnet-issuer.js';
import { operatorAccount } from './operator-account.js';

/** What the devnet deployed, kept in DATA_DIR so a restart reuses it. */
interface DevnetRecord {
  readonly chainId: number;
  readonly reactor: Address;
  /** RPC address of the running node, for the operator CLI. */
  readonly rpcUrl: string;
}

export const DEVNET_RECORD_FILE = 'devnet-chain.json';
/** How often the service checks that its devnet node runs, and starts it again if not. */
const NODE_CHECK_MS = 1_000;

export function readDevnetRecord(dataDir: string): DevnetRecord | null {
  const file = join(dataDir, DEVNET_RECORD_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as DevnetRecord;
}

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
export function devnetOperatorKey(dataDir: string): Hex {
  return localSecret(join(dataDir, 'devnet-operator-key'), () => generatePrivateKey()) as Hex;
}

/**
 * Starts the embedded devnet chain: an anvil node on loopback with its state in DATA_DIR. On the
 * first boot it deploys the reactor (operator and fee recipient: the devnet operator); on later
 * boots it reuses the recorded reactor. Every boot installs what is missing: the key registry at
 * 0x16a, the registry's tokens as devnet ERC-20s at their ledger addresses, and the keys of the
 * devnet's Ed25519 accounts.
 */
export async function openEmbeddedDevnet(
  config: ChainSettings & { chain: { kind: 'devnet' } },
  store: Store,
  logger: Logger,
): Promise<ChainContext> {
  const recorded = recordOrNull(config.dataDir, logger);
  // Bound once the chain is set up: a node started again may come from a state before the installs.
  let reinstall = (): void => {};
  const node = await DevnetNode.start({
    chainId: config.chainId,
    stateFile: join(config.dataDir, 'devnet-chain-state.json'),
    pidFile: join(config.dataDir, 'devnet-chain.pid'),
    rpcUrl: recorded?.chainId === config.chainId ? recorded.rpcUrl : undefined,
    logFile: join(config.dataDir, 'devnet-chain.log'),
    log: logger,
    stateIntervalSeconds: config.chain.stateIntervalSeconds,
    port: config.chain.port,
    gasLimit: Math.max(30_000_000, config.chain.settlement.txGasLimit),
    binary: findAnvil(config.chain.anvil),
    superviseMs: NODE_CHECK_MS,
    onRestart: () => reinstall(),
  });
  try {
    const clients = devnetClients(node.rpcUrl, config.chainId);
    const headAtStart = await clients.public.getBlockNumber();
    const operator = clients.wallet(operatorAccount(devnetOperatorKey(config.dataDir)));
    await fund(clients, operator.account.address);

    let reactor = recorded?.reactor;
    const code = reactor === undefined ? undefined : await clients.public.getCode({ address: reactor });
    if (reactor === undefined || code === undefined || code === '0x') {
      const hash = await operator.deployContract({
        abi: PartialFillLimitOrderReactor.abi,
        bytecode: PartialFillLimitOrderReactor.bytecode,
        args: [config.signatureDomainName, config.signatureDomainVersion, operator.account.address, operator.account.address],
      });
      const receipt = await clients.public.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error('the reactor deployment created no contract');
      reactor = getAddress(receipt.contractAddress);
      logger.info({ reactor }, 'deployed the reactor on the devnet chain');
    }
    const record: DevnetRecord = { chainId: config.chainId, reactor, rpcUrl: node.rpcUrl };
    writeFileAtomic(join(config.dataDir, DEVNET_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
    const restartListeners: ((head: bigint) => void)[] = [];
    const context: ChainContext = {
      public: clients.public,
      operator,
      reactor,
      chainId: config.chainId,
      headAtStart,
      indexFrom: 0n,
      amm: null,
      devnet: clients,
      restarts: { subscribe: (listener) => restartListeners.push(listener) },
      close: () => node.stop(),
    };
    const install = async () => {
      const issuer = DevnetIssuer.of(context);
      await issuer.installKeyRegistry();
      for (const token of await store.tokens.list()) await issuer.installToken(token);
      for (const account of await store.accountKeys.list()) await issuer.publishKey(account);
    };
    await install();
    reinstall = () => {
      clients.public
        .getBlockNumber()
        .then((head) => {
          for (const listener of restartListeners) listener(head);
        })
        .then(install)
        .catch((error: unknown) => logger.error({ err: error }, 'setting up the restarted devnet node failed'));
    };
    logger.info({ rpcUrl: node.rpcUrl, reactor }, 'devnet chain running');
    return context;
  } catch (error) {
    await node.stop();
    throw error;
  }
}
