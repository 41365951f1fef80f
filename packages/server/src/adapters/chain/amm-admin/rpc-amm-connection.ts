import type { AmmContracts } from '@dex/contracts';
import { createWalletClient, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Network } from '../../../domain/network.js';
import { type AmmAdmin, AmmRefusal } from '../../../ports/amm-admin.js';
import { rpcClients } from '../rpc-chain.js';
import { ChainAmmAdmin } from './amm-admin.js';
import { keySender } from './amm-senders.js';

/** The AMM that `chain deploy --with-amm` recorded (CHAIN_DEPLOYMENT) on the chain of CHAIN_RPC_URL. */
export interface RpcAmmSetting {
  readonly network: Network;
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly amm: AmmContracts;
}

/**
 * The AMM of a chain the service did not start, worked through the wallet of `ownerKey` (the AMM's
 * owner's, its own balances only: nothing is minted or impersonated there); null: reads only.
 */
export async function connectRpcAmm(setting: RpcAmmSetting, ownerKey: Hex | null): Promise<AmmAdmin> {
  const { chain, transport, publicClient } = rpcClients(setting, setting.rpcUrl);
  const chainId = await publicClient.getChainId().catch((error: unknown) => {
    throw new AmmRefusal(`CHAIN_RPC_URL ${setting.rpcUrl} does not answer as a JSON-RPC node (eth_chainId)`, { cause: error });
  });
  if (chainId !== setting.chainId) throw new AmmRefusal(`CHAIN_RPC_URL serves chain ${chainId}, not CHAIN_ID ${setting.chainId}`);
  const wallet = ownerKey === null ? null : createWalletClient({ chain, transport, account: privateKeyToAccount(ownerKey) });
  return new ChainAmmAdmin(publicClient, keySender(wallet), setting.amm);
}
