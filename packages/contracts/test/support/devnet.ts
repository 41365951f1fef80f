import type { Abi, Address, ContractConstructorArgs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { type DevnetClients, type DevnetWallet, devnetClients, fund } from '../../src/devnet-chain.js';
import { DevnetNode } from '../../src/devnet-node.js';

export type Wallet = DevnetWallet;

/** A devnet node in memory with viem clients, for one test file; stop it in afterAll. */
export interface TestDevnet extends DevnetClients {
  readonly node: DevnetNode;
  /** A wallet of a freshly generated key with gas money. */
  newWallet(): Promise<Wallet>;
  deploy<const abi extends Abi>(
    from: Wallet,
    artifact: { abi: abi; bytecode: `0x${string}` },
    args: ContractConstructorArgs<abi>,
  ): Promise<Address>;
  stop(): Promise<void>;
}

export const DEVNET_CHAIN_ID = 298;

export async function startTestDevnet(): Promise<TestDevnet> {
  const node = await DevnetNode.start({ chainId: DEVNET_CHAIN_ID, stateFile: null });
  const clients = devnetClients(node.rpcUrl, DEVNET_CHAIN_ID);
  return {
    ...clients,
    node,
    async newWallet() {
      const wallet = clients.wallet(privateKeyToAccount(generatePrivateKey()));
      await fund(clients, wallet.account.address);
      return wallet;
    },
    async deploy(from, artifact, args) {
      const hash = await from.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as Parameters<
        Wallet['deployContract']
      >[0]);
      const receipt = await clients.public.waitForTransactionReceipt({ hash });
      if (!receipt.contractAddress) throw new Error('deployment created no contract');
      return receipt.contractAddress;
    },
    stop: () => node.stop(),
  };
}
