import { connect, Events, type NatsConnection } from 'nats';
import type { Logger } from '../../ports/logger.js';

/** Longest pause between two attempts to reconnect. */
const RECONNECT_WAIT_MS = 500;
const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Connects to NATS at `url` (a comma-separated list of servers is tried in turn) and resolves once
 * connected. The client reconnects on its own, without limit; the outage is logged once, as is the
 * recovery.
 */
export async function openNats(url: string, name: string, logger: Logger): Promise<NatsConnection> {
  const connection = await connect({
    servers: url.split(','),
    name,
    timeout: CONNECT_TIMEOUT_MS,
    maxReconnectAttempts: -1,
    reconnectTimeWait: RECONNECT_WAIT_MS,
  });
  void (async () => {
    for await (const status of connection.status()) {
      if (status.type === Events.Disconnect) logger.warn({ server: status.data }, 'NATS is out of reach; reconnecting');
      else if (status.type === Events.Reconnect) logger.info({ server: status.data }, 'NATS answers again');
    }
  })();
  return connection;
}

/** Closes the connection after what it sends is flushed, waiting at most a second. */
export async function closeNats(connection: NatsConnection): Promise<void> {
  if (connection.isClosed()) return;
  await Promise.race([connection.drain().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  if (!connection.isClosed()) await connection.close();
}
