import {
  type AmmDeployment,
  type DevnetClients,
  type DevnetWallet,
  deployAmm,
  PartialFillLimitOrderReactor,
  reactorRole,
} from '@dex/contracts';
import { type Address, getAddress, type Hex, zeroAddress } from 'viem';
import type { Logger } from '../../../ports/logger.js';
import type { DevnetIssuer } from './devnet-issuer.js';

export interface DevnetAmmSetup {
  readonly clients: DevnetClients;
  /** Deploys the contracts and points the reactor at the factory (it owns the reactor). */
  readonly operator: DevnetWallet;
  /** SAUCE's minter: makes the farm a minter, and owns the farm and the fee switch. */
  readonly issuer: DevnetIssuer;
  readonly reactor: Address;
  /** The SAUCE token, installed already; null: no protocol token, no AMM. */
  readonly sauce: Address | null;
  /** What an earlier boot deployed, if anything. */
  readonly recorded: AmmDeployment | undefined;
  readonly logger: Logger;
}

/**
 * The devnet's AMM: the recorded one while its factory has code, else deployed now (the first boot,
 * or a chain that lost it), with the reactor pointed at its factory. The farm and the factory's fee
 * switch belong to the issuer rather than the operator: the settler counts the operator's nonces
 * itself, and the operator CLI or the live devnet sending as the operator too would break its count.
 */
export async function openDevnetAmm(setup: DevnetAmmSetup): Promise<AmmDeployment | null> {
  const { clients, operator, issuer, sauce, recorded, logger } = setup;
  if (sauce === null) {
    logger.info('no protocol token (PROTOCOL_TOKEN_ID): the devnet runs without the AMM');
    return null;
  }
  let amm = recorded;
  const code = amm === undefined ? undefined : await clients.public.getCode({ address: amm.factory });
  if (amm === undefined || code === undefined || code === '0x') {
    amm = await issuer.asIssuer((wallet) => deployAmm(clients, operator, { sauce, sauceMinter: wallet, admin: wallet }));
    logger.info({ ...amm }, 'deployed the AMM on the devnet chain');
  }
  await pointReactorAt(setup, amm.factory);
  return amm;
}

/**
 * Sets the reactor's pair factory unless it is set already. The first factory takes effect at once;
 * a replacement (the devnet lost its AMM) is proposed and taken up at once, since the devnet's
 * reactor has no change delay.
 */
async function pointReactorAt({ clients, operator, reactor }: DevnetAmmSetup, factory: Address): Promise<void> {
  const abi = PartialFillLimitOrderReactor.abi;
  const current = await clients.public.readContract({ address: reactor, abi, functionName: 'pairFactory' });
  if (getAddress(current) === factory) return;
  const role = reactorRole('PairFactory');
  const send = async (hash: Promise<Hex>, what: string) => {
    const receipt = await clients.public.waitForTransactionReceipt({ hash: await hash });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${receipt.transactionHash})`);
  };
  await send(
    operator.writeContract({ address: reactor, abi, functionName: 'proposeRole', args: [role, factory] }),
    'proposing the pair factory',
  );
  if (current !== zeroAddress) {
    await send(
      operator.writeContract({ address: reactor, abi, functionName: 'acceptRole', args: [role] }),
      'taking up the pair factory',
    );
  }
}
