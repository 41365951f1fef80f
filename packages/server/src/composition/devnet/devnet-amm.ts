import { ChainAmmAdmin } from '../../adapters/chain/amm-admin/amm-admin.js';
import { DevnetIssuer } from '../../adapters/chain/devnet/devnet-issuer.js';
import { devnetIssuerSender } from '../../adapters/chain/devnet/devnet-issuer-sender.js';
import type { AmmAdmin } from '../../ports/amm-admin.js';
import type { DevnetHost } from './devnet-host.js';

/** The AMM of the service's embedded devnet chain, worked as its administrator; null without one. */
export function devnetAmm(services: DevnetHost): AmmAdmin | null {
  const { chain } = services;
  if (!chain?.devnet || chain.amm === null) return null;
  return new ChainAmmAdmin(chain.devnet.public, devnetIssuerSender(chain.devnet, DevnetIssuer.of(chain)), chain.amm);
}
