import { type Abi, type Address, type ContractConstructorArgs, getAddress, type Hex } from 'viem';
import type { DevnetClients, DevnetWallet } from './devnet-chain.js';
import { AmmFactory, AmmRouter, Farm, SauceStaking, TestToken } from './generated/artifacts.js';

export interface AmmDeploymentOptions {
  /** The SAUCE token; the operator must be its minter, so it can let the farm mint rewards. */
  readonly sauce: Address;
  /** Receiver of the protocol's 1/6 of swap fees; absent leaves the fee off. */
  readonly feeTo?: Address;
}

export interface AmmDeployment {
  readonly factory: Address;
  readonly router: Address;
  readonly farm: Address;
  readonly staking: Address;
}

/**
 * Deploys the AMM on a devnet: the factory (fee switch held by the operator), its router, the farm
 * (owned by the operator, made a SAUCE minter) and SAUCE staking. One transaction at a time, each
 * waited for, so a failure names its step.
 */
export async function deployAmm(
  clients: DevnetClients,
  operator: DevnetWallet,
  options: AmmDeploymentOptions,
): Promise<AmmDeployment> {
  const sauceMinter = await clients.public.readContract({ address: options.sauce, abi: TestToken.abi, functionName: 'minter' });
  if (sauceMinter.toLowerCase() !== operator.account.address.toLowerCase()) {
    throw new Error(`the operator ${operator.account.address} is not the minter of SAUCE (${options.sauce}): ${sauceMinter} is`);
  }
  const deploy = async <const abi extends Abi>(
    what: string,
    artifact: { abi: abi; bytecode: Hex },
    args: ContractConstructorArgs<abi>,
  ): Promise<Address> => {
    const hash = await operator.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as Parameters<
      DevnetWallet['deployContract']
    >[0]);
    const receipt = await confirm(clients, hash, `deploying the ${what}`);
    if (!receipt.contractAddress) throw new Error(`deploying the ${what} created no contract (transaction ${hash})`);
    return getAddress(receipt.contractAddress);
  };
  const factory = await deploy('AMM factory', AmmFactory, [operator.account.address]);
  const router = await deploy('AMM router', AmmRouter, [factory]);
  const farm = await deploy('farm', Farm, [operator.account.address, options.sauce]);
  const staking = await deploy('SAUCE staking', SauceStaking, [options.sauce]);
  await confirm(
    clients,
    await operator.writeContract({ address: options.sauce, abi: TestToken.abi, functionName: 'addMinter', args: [farm] }),
    'making the farm a SAUCE minter',
  );
  if (options.feeTo !== undefined) {
    await confirm(
      clients,
      await operator.writeContract({ address: factory, abi: AmmFactory.abi, functionName: 'setFeeTo', args: [options.feeTo] }),
      'setting the protocol fee receiver',
    );
  }
  return { factory, router, farm, staking };
}

async function confirm(clients: DevnetClients, hash: Hex, what: string) {
  const receipt = await clients.public.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`);
  return receipt;
}
