import { type Abi, type Address, type ContractConstructorArgs, getAddress, type Hex } from 'viem';
import type { DevnetClients, DevnetWallet } from './devnet-chain.js';
import { AmmFactory, AmmRouter, Farm, SauceStaking, TestToken } from './generated/artifacts.js';

export interface AmmDeploymentOptions {
  /** The SAUCE token the farm mints as a reward and SAUCE staking takes. */
  readonly sauce: Address;
  /** SAUCE's minter (the one named at its initialisation): it lets the farm mint rewards. */
  readonly sauceMinter: DevnetWallet;
  /**
   * Owner of the farm and holder of the factory's fee switch; default: the deployer. The devnet
   * gives these to its issuer, whose transactions never compete with the operator's nonces.
   */
  readonly admin?: DevnetWallet;
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
 * Deploys the AMM on a devnet from `deployer`: the factory, its router, the farm (made a SAUCE
 * minter by SAUCE's minter) and SAUCE staking. One transaction at a time, each waited for, so a
 * failure names its step.
 */
export async function deployAmm(
  clients: DevnetClients,
  deployer: DevnetWallet,
  options: AmmDeploymentOptions,
): Promise<AmmDeployment> {
  const { sauce, sauceMinter, admin = deployer } = options;
  const minter = await clients.public.readContract({ address: sauce, abi: TestToken.abi, functionName: 'minter' });
  if (minter.toLowerCase() !== sauceMinter.account.address.toLowerCase()) {
    throw new Error(`${sauceMinter.account.address} is not the minter of SAUCE (${sauce}): ${minter} is`);
  }
  const deploy = async <const abi extends Abi>(
    what: string,
    artifact: { abi: abi; bytecode: Hex },
    args: ContractConstructorArgs<abi>,
  ): Promise<Address> => {
    const hash = await deployer.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as Parameters<
      DevnetWallet['deployContract']
    >[0]);
    const receipt = await confirm(clients, hash, `deploying the ${what}`);
    if (!receipt.contractAddress) throw new Error(`deploying the ${what} created no contract (transaction ${hash})`);
    return getAddress(receipt.contractAddress);
  };
  const factory = await deploy('AMM factory', AmmFactory, [admin.account.address]);
  const router = await deploy('AMM router', AmmRouter, [factory]);
  const farm = await deploy('farm', Farm, [admin.account.address, sauce]);
  const staking = await deploy('SAUCE staking', SauceStaking, [sauce]);
  await confirm(
    clients,
    await sauceMinter.writeContract({ address: sauce, abi: TestToken.abi, functionName: 'addMinter', args: [farm] }),
    'making the farm a SAUCE minter',
  );
  if (options.feeTo !== undefined) {
    await confirm(
      clients,
      await admin.writeContract({ address: factory, abi: AmmFactory.abi, functionName: 'setFeeTo', args: [options.feeTo] }),
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
