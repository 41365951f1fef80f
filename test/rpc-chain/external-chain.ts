import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DeploymentRecord,
  DevnetNode,
  devnetClients,
  fund,
  PartialFillLimitOrderReactor,
  permit2Approvals,
  TestToken,
} from '@dex/contracts';
import { type Address, getAddress, type Hex, parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { openSqliteStore } from '../../packages/server/src/adapters/sqlite/sqlite-store.js';
import { operator } from '../../packages/server/src/test-support/operator-cli.js';

/** The ledger's testnet chain id, and its consensus cadence: a block every 2 s. */
export const CHAIN_ID = 296;
const BLOCK_SECONDS = 2;

export type ChainClients = ReturnType<typeof devnetClients>;

/**
 * An EVM node the service did not start (anvil as a process of the test, with a state file so it
 * can be restarted from it on the same port), the contracts deployed by `dex-operator chain deploy`
 * as an operator would, and two ERC-20s of its own.
 */
export interface ExternalChain {
  node: DevnetNode;
  clients: ChainClients;
  readonly deployerKey: Hex;
  readonly deployment: DeploymentRecord;
  readonly deploymentFile: string;
  readonly tokens: readonly { readonly address: Address; readonly symbol: string; readonly decimals: number }[];
  /** Stops the node (its state written) and starts it again from its state file, on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function startNode(dir: string, port = 0): Promise<DevnetNode> {
  return DevnetNode.start({
    chainId: CHAIN_ID,
    stateFile: join(dir, 'chain-state.json'),
    stateIntervalSeconds: 1,
    blockTimeSeconds: BLOCK_SECONDS,
    port,
    logFile: join(dir, 'chain.log'),
  });
}

export async function startExternalChain(dir: string): Promise<ExternalChain> {
  let node = await startNode(dir);
  let clients = devnetClients(node.rpcUrl, CHAIN_ID);
  const deployerKey = generatePrivateKey();
  const deployer = clients.wallet(privateKeyToAccount(deployerKey));
  // The test's faucet: an operator on a real chain buys its gas.
  await fund(clients, deployer.account.address);
  const keyFile = join(dir, 'deployer.key');
  writeFileSync(keyFile, deployerKey, { mode: 0o600 });
  const deploymentFile = join(dir, 'deployment.json');
  const scratch = await openSqliteStore(join(dir, 'operator-scratch.sqlite'));
  try {
    const run = await operator(scratch)(
      'chain',
      'deploy',
      ...['--rpc-url', node.rpcUrl, '--key-file', keyFile, '--out', deploymentFile, '--chain-id', String(CHAIN_ID)],
      ...['--change-delay', '60', '--json'],
    );
    if (run.code !== 0) throw new Error(`chain deploy failed: ${run.err}`);
    const deployment = JSON.parse(run.out.split('\n').at(-1) as string) as DeploymentRecord;
    const tokens = [];
    for (const [symbol, decimals] of [
      ['AAA', 8],
      ['BBB', 6],
    ] as const) {
      const hash = await deployer.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: [] });
      const receipt = await clients.public.waitForTransactionReceipt({ hash });
      const address = getAddress(receipt.contractAddress as Address);
      await mined(
        clients,
        await deployer.writeContract({
          address,
          abi: TestToken.abi,
          functionName: 'initialize',
          args: [`Token ${symbol}`, symbol, decimals, deployer.account.address],
        }),
      );
      tokens.push({ address, symbol, decimals });
    }
    const chain: ExternalChain = {
      node,
      clients,
      deployerKey,
      deployment,
      deploymentFile,
      tokens,
      async restart() {
        const port = Number(new URL(node.rpcUrl).port);
        await node.stop();
        node = await startNode(dir, port);
        clients = devnetClients(node.rpcUrl, CHAIN_ID);
        chain.node = node;
        chain.clients = clients;
      },
      stop: () => node.stop(),
    };
    return chain;
  } catch (error) {
    await node.stop();
    throw error;
  } finally {
    await scratch.close();
  }
}

export async function mined(clients: ChainClients, hash: Hex): Promise<void> {
  const receipt = await clients.public.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
}

/**
 * Gives `key`'s address gas, its association with every token, `amount` whole units of each, and
 * onboards it as the live service asks: each token approves Permit2, Permit2 approves the reactor.
 */
export async function fundAndOnboard(chain: ExternalChain, key: Hex, amount: bigint): Promise<void> {
  const { clients, deployment } = chain;
  const wallet = clients.wallet(privateKeyToAccount(key));
  const minter = clients.wallet(privateKeyToAccount(chain.deployerKey));
  await fund(clients, wallet.account.address);
  // The account associates with every token first: the ledger pays no account that has not.
  const associations: Hex[] = [];
  for (const token of chain.tokens) {
    associations.push(await wallet.writeContract({ address: token.address, abi: TestToken.abi, functionName: 'associate' }));
  }
  await Promise.all(associations.map((hash) => mined(clients, hash)));
  // Sent back to back (the pending nonces follow), then waited for together: a block is 2 s.
  const sent: Hex[] = [];
  for (const token of chain.tokens) {
    const raw = amount * 10n ** BigInt(token.decimals);
    sent.push(
      await minter.writeContract({
        address: token.address,
        abi: TestToken.abi,
        functionName: 'mint',
        args: [wallet.account.address, raw],
      }),
    );
    for (const call of permit2Approvals(token.address, deployment.permit2.address, deployment.reactor.address)) {
      sent.push(await wallet.writeContract(call as Parameters<typeof wallet.writeContract>[0]));
    }
  }
  await Promise.all(sent.map((hash) => mined(clients, hash)));
}

/** The reactor's event names in a transaction, as a client verifying its fill reads them. */
export async function reactorEventsOf(chain: ExternalChain, hash: Hex): Promise<string[]> {
  const receipt = await chain.clients.public.getTransactionReceipt({ hash });
  return parseEventLogs({ abi: PartialFillLimitOrderReactor.abi, logs: receipt.logs })
    .filter((event) => event.address.toLowerCase() === chain.deployment.reactor.address.toLowerCase())
    .map((event) => event.eventName);
}
