import type { ChainConfig } from '../adapters/chain/chain-config.js';
import type { Network } from '../domain/network.js';
import { ConfigError, type Env, integer, oneOf, text, urlOf } from './env-values.js';

/** The part of the service a process runs: everything in one process, or one role of a cluster. */
export type Role = 'all' | 'gateway' | 'engine' | 'settler';

export const ROLES: readonly Role[] = ['all', 'gateway', 'engine', 'settler'];

/** How the processes of a cluster find each other; ROLE=all needs none of it. */
export interface ClusterConfig {
  readonly role: Role;
  /** ENGINE_SHARDS: how many engines share the books (book id mod shards); every gateway and engine must agree. */
  readonly shards: number;
  /** ENGINE_SHARD: the shard this engine writes (ROLE=engine). */
  readonly shard: number;
  /** NATS_URL: the command log (JetStream) and the engines' feed (core NATS); null for ROLE=all. */
  readonly natsUrl: string | null;
  /** NATS_PREFIX (default `dex.<network>`): subjects and the stream name of this deployment. */
  readonly natsPrefix: string;
  /** COMMAND_TIMEOUT_MS: how long a gateway waits for an engine's answer before ENGINE_UNAVAILABLE. */
  readonly commandTimeoutMs: number;
}

const SUBJECT_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function clusterConfig(env: Env, network: Network, databaseUrl: string | null, chain: ChainConfig['kind']): ClusterConfig {
  const role = oneOf<Role>(env, 'ROLE', 'all', ROLES);
  const shards = integer(env, 'ENGINE_SHARDS', 1, 1, 1_024);
  const shard = integer(env, 'ENGINE_SHARD', 0, 0, shards - 1);
  const natsUrl = urlOf(env, 'NATS_URL', ['nats:', 'tls:'], 'a nats:// URL');
  const natsPrefix = text(env, 'NATS_PREFIX', `dex.${network}`);
  if (!SUBJECT_PREFIX.test(natsPrefix))
    throw new ConfigError('NATS_PREFIX must be subject tokens joined by dots (e.g. dex.devnet)');
  if (role !== 'all') {
    if (databaseUrl === null)
      throw new ConfigError(`ROLE=${role} needs DATABASE_URL: the roles of a cluster share one PostgreSQL store`);
    if (natsUrl === null) throw new ConfigError(`ROLE=${role} needs NATS_URL`);
  }
  if (role === 'settler' && chain === 'off')
    throw new ConfigError('ROLE=settler needs a chain to settle on: CHAIN=devnet or CHAIN=rpc');
  return { role, shards, shard, natsUrl, natsPrefix, commandTimeoutMs: integer(env, 'COMMAND_TIMEOUT_MS', 5_000, 100, 120_000) };
}
