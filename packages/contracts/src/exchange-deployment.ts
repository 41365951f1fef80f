import { type Address, getAddress, isAddressEqual, zeroAddress } from 'viem';
import { type AmmContracts, pairContracts, type RewardToken, rewardContracts, sauceOf } from './amm-deployment.js';
import {
  contractDeployer,
  type Deploy,
  type DeployerSetting,
  DeploymentError,
  holdsCode,
  type ReadingClient,
} from './contract-deployer.js';
import { isDeployedCode } from './deployed-code.js';
import { PartialFillLimitOrderReactor, Permit2 } from './generated/artifacts.js';
import { type ReactorRole, reactorRole } from './reactor-roles.js';

/**
 * What the service needs on a chain, as `chain deploy` wrote it: the service reads it
 * (`CHAIN_DEPLOYMENT`), and the next `chain deploy` keeps what it names.
 */
export interface DeploymentRecord {
  readonly format: typeof DEPLOYMENT_FORMAT;
  readonly chainId: number;
  /** The chain's own Permit2 (given), or one this command deployed. */
  readonly permit2: { readonly address: Address; readonly deployedHere: boolean };
  readonly reactor: {
    readonly address: Address;
    /** The block of its deployment: the first that can hold its events. */
    readonly block: string;
    readonly domain: { readonly name: string; readonly version: string };
    readonly changeDelaySeconds: string;
  };
  /** Farm and staking are null without SAUCE (and in records written before they were deployed). */
  readonly amm: AmmContracts | null;
}

export const DEPLOYMENT_FORMAT = 'dex-deployment/1';

/** `deployer` sends every transaction and owns the reactor (and the AMM's farm and fee switch) it deploys. */
export interface DeployExchangeParameters extends DeployerSetting {
  /** The chain's Permit2; none: deploy ours. */
  readonly permit2?: Address | undefined;
  readonly domain: { readonly name: string; readonly version: string };
  readonly changeDelaySeconds: bigint;
  readonly operator: Address;
  readonly feeRecipient: Address;
  readonly withAmm: boolean;
  /** With `withAmm`: SAUCE, the farm's reward token, for the farm and SAUCE staking (the deployer their admin). */
  readonly sauce?: Address | undefined;
  /** What an earlier run deployed on this chain: kept where the chain still holds it. */
  readonly previous?: DeploymentRecord | null | undefined;
}

/**
 * Deploys what the exchange needs on a chain, keeping what `previous` names where the chain still
 * holds this build's code there: Permit2 (unless the chain has its own), the reactor (the deployer
 * its owner; operator and fee recipient as asked: a change on a kept reactor is proposed, two-step)
 * and with `withAmm` the AMM's factory and router, the reactor's pair factory, and with `sauce` its
 * farm (a SAUCE minter, where the deployer is SAUCE's minter) and SAUCE staking. Every transaction
 * is waited for to `confirmations` and its code checked against this build.
 */
export async function deployExchange(parameters: DeployExchangeParameters): Promise<DeploymentRecord> {
  const { public: client, previous = null } = parameters;
  const chainId = await client.getChainId();
  if (previous !== null && previous.chainId !== chainId) {
    throw new DeploymentError(`the deployment record is of chain ${previous.chainId}, the node serves chain ${chainId}`);
  }
  const deploy = contractDeployer(parameters);
  // SAUCE is checked before anything is deployed: a wrong address costs nothing.
  const sauce =
    parameters.withAmm && parameters.sauce !== undefined ? await sauceOf(ammParameters(parameters), parameters.sauce) : null;
  const permit2 = await permit2Of(parameters, previous, deploy);
  const reactor = await reactorOf(parameters, previous, permit2.address, deploy);
  const amm = parameters.withAmm ? await ammOf(parameters, previous, deploy, sauce) : (previous?.amm ?? null);
  if (parameters.withAmm && amm !== null) await holdRole(parameters, reactor.address, 'PairFactory', amm.factory);
  return { format: DEPLOYMENT_FORMAT, chainId, permit2, reactor, amm };
}

async function permit2Of(
  parameters: DeployExchangeParameters,
  previous: DeploymentRecord | null,
  deploy: Deploy,
): Promise<DeploymentRecord['permit2']> {
  const { public: client, report = () => {} } = parameters;
  if (parameters.permit2 !== undefined) {
    const address = getAddress(parameters.permit2);
    await assertPermit2(client, address);
    report({ contract: 'Permit2', action: 'kept', address, detail: "the chain's own" });
    return { address, deployedHere: false };
  }
  if (previous?.permit2.deployedHere === true && (await holdsCode(client, previous.permit2.address, Permit2))) {
    report({ contract: 'Permit2', action: 'kept', address: previous.permit2.address });
    return previous.permit2;
  }
  const { address } = await deploy('Permit2', Permit2, []);
  return { address, deployedHere: true };
}

/** A given Permit2 must answer as one: code, and an allowance read of the three-value shape. */
async function assertPermit2(client: ReadingClient, address: Address): Promise<void> {
  const code = await client.getCode({ address });
  if (code === undefined || code === '0x') throw new DeploymentError(`--permit2 ${address} has no code on this chain`);
  try {
    await client.readContract({
      address,
      abi: Permit2.abi,
      functionName: 'allowance',
      args: [zeroAddress, zeroAddress, zeroAddress],
    });
  } catch (error) {
    throw new DeploymentError(`--permit2 ${address} does not answer allowance(owner, token, spender) as Permit2 does`, {
      cause: error,
    });
  }
}

async function reactorOf(
  parameters: DeployExchangeParameters,
  previous: DeploymentRecord | null,
  permit2: Address,
  deploy: Deploy,
): Promise<DeploymentRecord['reactor']> {
  const { public: client, deployer, domain, changeDelaySeconds, report = () => {} } = parameters;
  const kept = previous?.reactor;
  const keptCode = kept === undefined ? undefined : await client.getCode({ address: kept.address });
  if (kept !== undefined && keptCode !== undefined && keptCode !== '0x') {
    // Orders are signed for that reactor: another in its place would leave them unsettleable.
    if (!isDeployedCode(keptCode, PartialFillLimitOrderReactor)) {
      throw new DeploymentError(
        `the recorded reactor ${kept.address} holds another build's code: upgrade on purpose (a new record) or deploy with the build that made it`,
      );
    }
    const read = reactorReader(client, kept.address);
    const [owner, pulledBy] = await Promise.all([read('owner'), read('permit2')]);
    if (!isAddressEqual(pulledBy, permit2)) {
      throw new DeploymentError(`the recorded reactor ${kept.address} pulls through Permit2 ${pulledBy}, not ${permit2}`);
    }
    if (!isAddressEqual(owner, deployer.account.address)) {
      throw new DeploymentError(
        `the recorded reactor ${kept.address} is owned by ${owner}, not by this key (${deployer.account.address})`,
      );
    }
    report({ contract: 'reactor', action: 'kept', address: kept.address });
    await holdRole(parameters, kept.address, 'Operator', parameters.operator);
    await holdRole(parameters, kept.address, 'FeeRecipient', parameters.feeRecipient);
    return kept;
  }
  const { address, block } = await deploy('reactor', PartialFillLimitOrderReactor, [
    domain.name,
    domain.version,
    permit2,
    changeDelaySeconds,
    parameters.operator,
    parameters.feeRecipient,
  ]);
  return { address, block: String(block), domain: { ...domain }, changeDelaySeconds: String(changeDelaySeconds) };
}

function reactorReader(client: ReadingClient, reactor: Address) {
  return (name: 'owner' | 'operator' | 'feeRecipient' | 'pairFactory' | 'permit2'): Promise<Address> =>
    client.readContract({ address: reactor, abi: PartialFillLimitOrderReactor.abi, functionName: name });
}

const ROLE_GETTERS = { Owner: 'owner', Operator: 'operator', FeeRecipient: 'feeRecipient', PairFactory: 'pairFactory' } as const;

/**
 * Makes `holder` the reactor's `role`, as far as this key can: nothing if it holds it already; a
 * proposal otherwise (set at once for the first pair factory), which the new holder takes up with
 * `acceptRole` once the reactor's delay is over (the owner for a pair factory).
 */
async function holdRole(
  parameters: DeployExchangeParameters,
  reactor: Address,
  role: ReactorRole,
  holder: Address,
): Promise<void> {
  const { public: client, deployer, report = () => {} } = parameters;
  const contract = `reactor ${ROLE_GETTERS[role]}`;
  if (isAddressEqual(await reactorReader(client, reactor)(ROLE_GETTERS[role]), holder)) {
    report({ contract, action: 'kept', address: holder });
    return;
  }
  const call = { address: reactor, abi: PartialFillLimitOrderReactor.abi } as const;
  const [pendingHolder, readyAt] = await client.readContract({
    ...call,
    functionName: 'pendingChange',
    args: [reactorRole(role)],
  });
  if (readyAt !== 0n && isAddressEqual(pendingHolder, holder)) {
    report({ contract, action: 'pending', address: holder, detail: `takes over with acceptRole after ${isoTime(readyAt)}` });
    return;
  }
  const hash = await deployer.writeContract({ ...call, functionName: 'proposeRole', args: [reactorRole(role), holder] });
  const receipt = await client.waitForTransactionReceipt({ hash, confirmations: parameters.confirmations });
  if (receipt.status !== 'success')
    throw new DeploymentError(`proposing ${holder} as the ${contract} failed (transaction ${hash})`);
  if (isAddressEqual(await reactorReader(client, reactor)(ROLE_GETTERS[role]), holder)) {
    report({ contract, action: 'set', address: holder, transaction: hash });
    return;
  }
  const [, ready] = await client.readContract({ ...call, functionName: 'pendingChange', args: [reactorRole(role)] });
  report({
    contract,
    action: 'proposed',
    address: holder,
    transaction: hash,
    detail: `takes over with acceptRole after ${isoTime(ready)}`,
  });
}

function isoTime(seconds: bigint): string {
  return new Date(Number(seconds) * 1_000).toISOString();
}

/** The deployer is the AMM's admin: the owner of the farm and the holder of the fee switch. */
function ammParameters(parameters: DeployExchangeParameters) {
  return { ...parameters, admin: parameters.deployer.account.address };
}

/** The AMM's contracts, keeping what the record names; the farm and staking need SAUCE, else the record's stay. */
async function ammOf(
  parameters: DeployExchangeParameters,
  previous: DeploymentRecord | null,
  deploy: Deploy,
  sauce: RewardToken | null,
): Promise<AmmContracts> {
  const kept = previous?.amm ?? null;
  const pairs = await pairContracts(ammParameters(parameters), deploy, kept);
  if (sauce === null) return { ...pairs, farm: kept?.farm ?? null, staking: kept?.staking ?? null };
  return { ...pairs, ...(await rewardContracts(ammParameters(parameters), deploy, sauce, kept)) };
}

/** Reads a deployment record from its JSON text, saying in words what is wrong with it. */
export function parseDeploymentRecord(text: string, source: string): DeploymentRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DeploymentError(`${source} is not JSON`, { cause: error });
  }
  const record = value as Partial<DeploymentRecord> | null;
  const fail = (what: string): never => {
    throw new DeploymentError(`${source} is not a deployment record of this service: ${what}`);
  };
  if (typeof record !== 'object' || record === null) return fail('not an object');
  if (record.format !== DEPLOYMENT_FORMAT) fail(`format must be "${DEPLOYMENT_FORMAT}"`);
  if (!Number.isSafeInteger(record.chainId) || (record.chainId as number) <= 0) fail('chainId must be a positive integer');
  const address = (field: string, given: unknown): Address =>
    typeof given === 'string' && /^0x[0-9a-fA-F]{40}$/.test(given) ? getAddress(given) : fail(`${field} must be a 0x address`);
  const reactor = record.reactor ?? fail('reactor is missing');
  const permit2 = record.permit2 ?? fail('permit2 is missing');
  if (!/^[0-9]{1,20}$/.test(String(reactor.block))) fail('reactor.block must be a block number');
  if (!/^[0-9]{1,20}$/.test(String(reactor.changeDelaySeconds))) fail('reactor.changeDelaySeconds must be a whole number');
  if (typeof reactor.domain?.name !== 'string' || typeof reactor.domain?.version !== 'string') {
    fail('reactor.domain must name the signature domain');
  }
  const amm = record.amm ?? null;
  return {
    format: DEPLOYMENT_FORMAT,
    chainId: record.chainId as number,
    permit2: { address: address('permit2.address', permit2.address), deployedHere: permit2.deployedHere === true },
    reactor: {
      address: address('reactor.address', reactor.address),
      block: String(reactor.block),
      domain: { name: reactor.domain.name, version: reactor.domain.version },
      changeDelaySeconds: String(reactor.changeDelaySeconds),
    },
    amm: amm === null ? null : ammRecord(amm, address),
  };
}

/** The record's AMM; farm and staking are absent from records written before they were deployed. */
function ammRecord(amm: Partial<AmmContracts>, address: (field: string, given: unknown) => Address): AmmContracts {
  const optionalAddress = (field: 'farm' | 'staking') => (amm[field] == null ? null : address(`amm.${field}`, amm[field]));
  return {
    factory: address('amm.factory', amm.factory),
    router: address('amm.router', amm.router),
    farm: optionalAddress('farm'),
    staking: optionalAddress('staking'),
  };
}
