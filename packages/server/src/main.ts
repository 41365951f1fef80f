#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js';
import { startLiveDevnet } from './devnet/live-devnet.js';
import { createLogger } from './logging.js';
import { startServer } from './server.js';

/** Time allowed for in-flight requests after SIGINT/SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** The bot's share of it: its cancellations are best effort, the server's own close is not. */
const BOT_STOP_GRACE_MS = 4_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const server = await startServer(config, logger);
  logger.info({ url: server.url, network: config.network, openMarketData: config.openMarketData }, 'order book API listening');
  logger.info({ url: server.dataApiUrl, requireKeys: config.dataApi.requireKeys }, 'data API listening');
  // After listen, not inside startServer: tests and benchmarks never run the bot, and it never delays readiness.
  const liveDevnet = config.marketMaker === null ? null : startLiveDevnet(server, config.marketMaker, logger);

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // The bot goes first, cancelling its resting orders through the API while it still answers.
    const botStopped = new Promise<void>((resolve) => {
      if (liveDevnet === null) return resolve();
      const giveUp = setTimeout(resolve, BOT_STOP_GRACE_MS);
      giveUp.unref();
      liveDevnet
        .stop()
        .catch((error: unknown) => logger.warn({ err: error }, 'stopping the market maker failed'))
        .finally(() => {
          clearTimeout(giveUp);
          resolve();
        });
    });
    botStopped
      .then(() => server.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
