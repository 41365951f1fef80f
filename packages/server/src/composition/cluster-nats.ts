import type { NatsConnection } from 'nats';
import { type CommandLogNames, JetStreamCommandSender } from '../adapters/nats/jetstream-command-log.js';
import { openNats } from '../adapters/nats/nats-connection.js';
import { ShardCommands } from '../application/command-log/shard-commands.js';
import type { Logger } from '../ports/logger.js';
import type { ClusterConfig } from './cluster-config.js';

/** The command stream and subjects of the deployment NATS_PREFIX names (stream names allow no dots). */
export function commandLogNames(cluster: Pick<ClusterConfig, 'natsPrefix'>): CommandLogNames {
  return { stream: `${cluster.natsPrefix.replace(/[.-]/g, '_').toUpperCase()}_COMMANDS`, subjectPrefix: cluster.natsPrefix };
}

/** Desk commands to the engines of the cluster over their command logs on `nats`. */
export function shardCommands(nats: NatsConnection, cluster: ClusterConfig): ShardCommands {
  return new ShardCommands(new JetStreamCommandSender(nats, commandLogNames(cluster)), cluster.shards, cluster.commandTimeoutMs);
}

/** Connects to NATS_URL; the roles of a cluster cannot run without it. */
export function openClusterNats(cluster: ClusterConfig, name: string, logger: Logger): Promise<NatsConnection> {
  if (cluster.natsUrl === null) throw new Error(`ROLE=${cluster.role} needs NATS_URL`);
  return openNats(cluster.natsUrl, name, logger);
}
