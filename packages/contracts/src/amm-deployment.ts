import { type Address, getAddress, isAddressEqual, parseAbi } from 'viem';
import {
  confirmed,
  contractDeployer,
  type Deploy,
  type DeployerSetting,
  type DeployerWallet,
  DeploymentError,
  holdsCode,
} from './contract-deployer.js';
import type { CompiledCode } from './deployed-code.js';
import type { DevnetClients, DevnetWallet } from './devnet-chain.js';
import { AmmFactory, AmmRouter, Farm, SauceStaking, TestToken } from './generated/artifacts.js';

/** The AMM as a deployment record names it: the farm and SAUCE staking only where SAUCE was given. */
export interface AmmContracts {
  readonly factory: Address;
  readonly router: Address;
  readonly farm: Address | null;
  readonly staking: Address | null;
}

/** The whole AMM, as the devnet deploys it. */
export interface AmmDeployment extends AmmContracts {
  readonly farm: Address;
  readonly staking: Address;
}

export interface AmmParameters extends DeployerSetting {
  /** Owner of the farm and holder of the factory's fee switch. */
  readonly admin: Address;
  /**
   * SAUCE's minter, which must be it, to make the farm a minter. Absent: the deployer does so when
   * it is SAUCE's minter; otherwise that step is left pending, for SAUCE's minter to take.
   */
  readonly sauceMinter?: DeployerWallet | undefined;
}

/** The factory (fee switch to `admin`) and its router: those `kept` names while the chain holds this build's code there. */
export async function pairContracts(
  parameters: AmmParameters,
  deploy: Deploy,
  kept: AmmContracts | null,
): Promise<Pick<AmmContracts, 'factory' | 'router'>> {
  const { public: client, report = () => {} } = parameters;
  if (kept !== null && (await holdsCode(client, kept.factory, AmmFactory)) && (await holdsCode(client, kept.router, AmmRouter))) {
    report({ contract: 'AMM factory', action: 'kept', address: kept.factory });
    report({ contract: 'AMM router', action: 'kept', address: kept.router });
    return { factory: kept.factory, router: kept.router };
  }
  const factory = (await deploy('AMM factory', AmmFactory, [parameters.admin])).address;
  const router = (await deploy('AMM router', AmmRouter, [factory])).address;
  return { factory, router };
}

/** SAUCE, the farm's reward token, and its minter: the one that can make the farm a minter too. */
export interface RewardToken {
  readonly address: Address;
  readonly minter: Address;
}

const REWARD_TOKEN_ABI = parseAbi(['function sauce() view returns (address)']);

/**
 * The farm (owned by `admin`) minting `sauce` as its reward, and SAUCE staking: those `kept` names
 * while the chain holds this build's code there for the same SAUCE; then the farm made a minter.
 */
export async function rewardContracts(
  parameters: AmmParameters,
  deploy: Deploy,
  sauce: RewardToken,
  kept: AmmContracts | null,
): Promise<Pick<AmmDeployment, 'farm' | 'staking'>> {
  const keptOr = async (what: string, address: Address | null | undefined, compiled: CompiledCode) => {
    if (address == null || !(await holdsCode(parameters.public, address, compiled))) return null;
    const rewards = await parameters.public.readContract({ address, abi: REWARD_TOKEN_ABI, functionName: 'sauce' });
    if (!isAddressEqual(rewards, sauce.address)) {
      throw new DeploymentError(
        `the recorded ${what} ${address} is for SAUCE ${rewards}, not ${sauce.address}: a new record for another token`,
      );
    }
    parameters.report?.({ contract: what, action: 'kept', address });
    return address;
  };
  const farm =
    (await keptOr('farm', kept?.farm, Farm)) ?? (await deploy('farm', Farm, [parameters.admin, sauce.address])).address;
  const staking =
    (await keptOr('SAUCE staking', kept?.staking, SauceStaking)) ??
    (await deploy('SAUCE staking', SauceStaking, [sauce.address])).address;
  await makeFarmMint(parameters, sauce, farm);
  return { farm, staking };
}

/**
 * SAUCE with its minter, read before anything is deployed: a `sauce` that is no token with minters
 * as this build's is refused, and so is a `sauceMinter` that is not its minter.
 */
export async function sauceOf(parameters: AmmParameters, sauce: Address): Promise<RewardToken> {
  let minter: Address;
  try {
    minter = await parameters.public.readContract({ address: sauce, abi: TestToken.abi, functionName: 'minter' });
  } catch (error) {
    throw new DeploymentError(`SAUCE ${sauce} does not answer minter() as a token the farm can mint`, { cause: error });
  }
  const { sauceMinter } = parameters;
  if (sauceMinter !== undefined && !isAddressEqual(minter, sauceMinter.account.address)) {
    throw new DeploymentError(`${sauceMinter.account.address} is not the minter of SAUCE (${sauce}): ${minter} is`);
  }
  return { address: getAddress(sauce), minter };
}

async function makeFarmMint(parameters: AmmParameters, { address: sauce, minter }: RewardToken, farm: Address): Promise<void> {
  const { public: client, report = () => {} } = parameters;
  const step = { contract: 'farm as SAUCE minter', address: farm } as const;
  if (await client.readContract({ address: sauce, abi: TestToken.abi, functionName: 'isMinter', args: [farm] })) {
    report({ ...step, action: 'kept' });
    return;
  }
  const wallet = parameters.sauceMinter ?? parameters.deployer;
  if (!isAddressEqual(wallet.account.address, minter)) {
    report({
      ...step,
      action: 'pending',
      detail: `the farm pays no SAUCE until SAUCE's minter ${minter} makes it a minter: addMinter(${farm}) on ${sauce}`,
    });
    return;
  }
  const transaction = await confirmed(
    parameters,
    wallet.writeContract({ address: sauce, abi: TestToken.abi, functionName: 'addMinter', args: [farm] }),
    'making the farm a SAUCE minter',
  );
  report({ ...step, action: 'set', transaction });
}

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
}

/**
 * Deploys the whole AMM on a devnet from `deployer`, as `chain deploy --with-amm --sauce` does on
 * another chain: the factory, its router, the farm (made a SAUCE minter by SAUCE's minter) and SAUCE
 * staking. One transaction at a time, each waited for, so a failure names its step.
 */
export async function deployAmm(
  clients: DevnetClients,
  deployer: DevnetWallet,
  { sauce, sauceMinter, admin = deployer }: AmmDeploymentOptions,
): Promise<AmmDeployment> {
  const parameters: AmmParameters = {
    public: clients.public,
    deployer,
    confirmations: 1,
    admin: admin.account.address,
    sauceMinter,
  };
  const deploy = contractDeployer(parameters);
  const reward = await sauceOf(parameters, sauce);
  const pairs = await pairContracts(parameters, deploy, null);
  return { ...pairs, ...(await rewardContracts(parameters, deploy, reward, null)) };
}
