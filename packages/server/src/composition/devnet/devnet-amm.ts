import { DevnetAmmAdmin } from '../../adapters/chain/devnet-amm-admin.js';
import { DevnetIssuer } from '../../adapters/chain/devnet-issuer.js';
import type { DevnetAmm } from '../../ports/devnet-amm.js';
import type { DevnetHost } from './devnet-host.js';

/** The AMM of the service's embedded devnet chain, worked as its administrator; null without one. */
export function devnetAmm(services: DevnetHost): DevnetAmm | null {
  const chain = services.settlement?.chain;
  if (!chain?.devnet || chain.amm === null) return null;
  return new DevnetAmmAdmin(chain.devnet, DevnetIssuer.of(chain), chain.amm);
}
