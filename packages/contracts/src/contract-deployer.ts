import {
  type Abi,
  type Account,
  type Address,
  type Chain,
  type ContractConstructorArgs,
  getAddress,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { type CompiledCode, isDeployedCode } from './deployed-code.js';

export class DeploymentError extends Error {
  override readonly name = 'DeploymentError';
}

/** One thing the deployment did or found, for the operator to read. */
export interface DeploymentStep {
  readonly contract: string;
  readonly action: 'kept' | 'deployed' | 'set' | 'proposed' | 'pending';
  readonly address: Address;
  readonly transaction?: Hex;
  readonly detail?: string;
}

export type DeployerWallet = WalletClient<Transport, Chain, Account>;
export type ReadingClient = PublicClient<Transport, Chain>;

/** Deploys one contract of this build and returns where, with the block it landed in. */
export type Deploy = <const abi extends Abi>(
  what: string,
  compiled: { abi: abi; bytecode: Hex } & CompiledCode,
  args: ContractConstructorArgs<abi>,
) => Promise<{ address: Address; block: bigint }>;

export interface DeployerSetting {
  readonly public: ReadingClient;
  readonly deployer: DeployerWallet;
  /** Blocks each transaction waits for, its own included (1: mined). */
  readonly confirmations: number;
  readonly report?: ((step: DeploymentStep) => void) | undefined;
}

/** Deploys one contract, waits for its confirmations and checks the code the chain now holds. */
export function contractDeployer({ public: client, deployer, confirmations, report = () => {} }: DeployerSetting): Deploy {
  return async (what, compiled, args) => {
    const hash = await deployer.deployContract({ abi: compiled.abi, bytecode: compiled.bytecode, args } as Parameters<
      DeployerWallet['deployContract']
    >[0]);
    const receipt = await client.waitForTransactionReceipt({ hash, confirmations });
    if (receipt.status !== 'success' || !receipt.contractAddress) {
      throw new DeploymentError(`deploying the ${what} failed (transaction ${hash})`);
    }
    const address = getAddress(receipt.contractAddress);
    if (!(await holdsCode(client, address, compiled))) {
      throw new DeploymentError(`the ${what} at ${address} does not hold the code this build deployed`);
    }
    report({ contract: what, action: 'deployed', address, transaction: hash });
    return { address, block: receipt.blockNumber };
  };
}

export async function holdsCode(client: ReadingClient, address: Address, compiled: CompiledCode): Promise<boolean> {
  return isDeployedCode(await client.getCode({ address }), compiled);
}

/** Sends one transaction, waits for its confirmations, and names `what` when it fails. */
export async function confirmed(setting: DeployerSetting, hash: Promise<Hex>, what: string): Promise<Hex> {
  const sent = await hash;
  const receipt = await setting.public.waitForTransactionReceipt({ hash: sent, confirmations: setting.confirmations });
  if (receipt.status !== 'success') throw new DeploymentError(`${what} failed (transaction ${sent})`);
  return sent;
}
