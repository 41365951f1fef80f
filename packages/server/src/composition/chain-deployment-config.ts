import { existsSync, readFileSync } from 'node:fs';
import { DeploymentError, type DeploymentRecord, parseDeploymentRecord } from '@dex/contracts';
import { ConfigError, type Env, text } from './env-values.js';

/** The record `dex-operator chain deploy` wrote, named by CHAIN_DEPLOYMENT; null when unset. */
export function chainDeployment(env: Env): DeploymentRecord | null {
  const file = text(env, 'CHAIN_DEPLOYMENT', '');
  if (file === '') return null;
  if (!existsSync(file)) throw new ConfigError(`CHAIN_DEPLOYMENT names ${file}, which does not exist`);
  try {
    return parseDeploymentRecord(readFileSync(file, 'utf8'), `CHAIN_DEPLOYMENT ${file}`);
  } catch (error) {
    if (error instanceof DeploymentError) throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * Checks the record against the rest of the configuration, naming both sides of a difference:
 * orders signed for another chain, reactor or signature domain would never settle.
 */
export function checkDeployment(
  deployment: DeploymentRecord,
  given: { chainId: number; reactorAddress: string; domainName: string; domainVersion: string },
): void {
  const source = `CHAIN_DEPLOYMENT (${deployment.reactor.address} on chain ${deployment.chainId})`;
  if (deployment.chainId !== given.chainId) {
    throw new ConfigError(`${source} is of chain ${deployment.chainId}, CHAIN_ID is ${given.chainId}`);
  }
  if (given.reactorAddress.toLowerCase() !== deployment.reactor.address.toLowerCase()) {
    throw new ConfigError(`REACTOR_ADDRESS ${given.reactorAddress} is not the reactor of ${source}`);
  }
  const { name, version } = deployment.reactor.domain;
  if (name !== given.domainName || version !== given.domainVersion) {
    throw new ConfigError(
      `${source} signs orders for domain "${name}" version "${version}", SIGNATURE_DOMAIN_NAME/VERSION say "${given.domainName}" "${given.domainVersion}"`,
    );
  }
}
