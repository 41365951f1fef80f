import type { FastifyBaseLogger } from 'fastify';
import { ChainSetupError } from '../adapters/chain/rpc-chain.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { DevnetHost } from './devnet/devnet-host.js';
import { startEngine } from './engine-role.js';
import { openGatewayServices } from './gateway-role.js';
import { createLogger } from './logging.js';
import { listenWith, type RunningServer, type ServedDeps, startServer } from './server.js';
import { startSettler } from './settler-role.js';

/** Time allowed for in-flight requests after SIGINT/SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;
/** A companion's share of it: its stop is best effort, the server's own close is not. */
const COMPANION_STOP_GRACE_MS = 4_000;

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * While the service starts, a stop signal exits at once, as the default action would, but through
 * process.exit: a devnet chain node started so far is stopped on the way out, not left running.
 */
function exitAtOnce(signal: NodeJS.Signals): never {
  // 128 + the signal's number, as a shell reports a process that signal ended.
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

/**
 * Set by the first reason to stop: the process stops once, whatever comes meanwhile (a Ctrl-C of
 * `npm run cluster` brings each role SIGINT from the terminal and SIGTERM from the launcher, and a
 * role may fail while it stops); the first stop runs to its end or its grace.
 */
let stopping = false;

/** From now on SIGINT and SIGTERM call `stop`, in place of the start-up's exit. */
function onStopSignals(stop: (signal: NodeJS.Signals) => void): void {
  for (const signal of STOP_SIGNALS) {
    process.off(signal, exitAtOnce);
    process.on(signal, stop);
  }
}

/** The logger the service writes to, and hands to its companion. */
export type ServiceLogger = FastifyBaseLogger;

/** Something that runs beside the service in its process (the live devnet's bot): started after listen, stopped before close. */
export interface Companion {
  /** What the log calls it when stopping it fails. */
  readonly name: string;
  stop(): Promise<void>;
}

/** Starts a companion for the listening server, or none (null) for this configuration. */
export type StartCompanion = (
  server: RunningServer<ServedDeps & DevnetHost>,
  config: Config,
  logger: ServiceLogger,
) => Companion | null;

function configFromEnvironment(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Stops the companion first (it may still need the API, e.g. to cancel its orders), then the server, then exits. */
function shutdown(
  signal: string,
  server: RunningServer<ServedDeps>,
  companion: Companion | null,
  logger: ServiceLogger,
  exitCode = 0,
): void {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  const companionStopped = new Promise<void>((resolve) => {
    if (companion === null) return resolve();
    const giveUp = setTimeout(resolve, COMPANION_STOP_GRACE_MS);
    giveUp.unref();
    companion
      .stop()
      .catch((error: unknown) => logger.warn({ err: error }, `stopping the ${companion.name} failed`))
      .finally(() => {
        clearTimeout(giveUp);
        resolve();
      });
  });
  companionStopped
    .then(() => server.close())
    .then(
      () => process.exit(exitCode),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
}

/** A role without HTTP (engine, settler): what it must stop on, and how it stops. */
interface HeadlessRole {
  readonly failed: Promise<Error>;
  close(): Promise<void>;
}

/** Runs a headless role until a signal, or until it fails (exit 1, for the supervisor to restart it). */
function runHeadless(role: HeadlessRole, lost: string, logger: ServiceLogger): void {
  const stop = (signal: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS);
    force.unref();
    role.close().then(
      () => process.exit(exitCode),
      () => process.exit(1),
    );
  };
  onStopSignals((signal) => stop(signal, 0));
  void role.failed.then((error) => {
    logger.fatal({ err: error }, `${lost}; stopping`);
    stop('ROLE_FAILED', 1);
  });
}

async function run(startCompanion: StartCompanion): Promise<void> {
  for (const signal of STOP_SIGNALS) process.on(signal, exitAtOnce);
  const config = configFromEnvironment();
  const logger = createLogger(config.logLevel);
  if (config.cluster.role === 'engine') {
    return runHeadless(await startEngine(config, logger), 'the engine lost its lease or its command log', logger);
  }
  if (config.cluster.role === 'settler') {
    return runHeadless(await startSettler(config, logger), 'the settler lost its lease or could not start', logger);
  }
  const server: RunningServer<ServedDeps & DevnetHost> =
    config.cluster.role === 'all'
      ? await startServer(config, logger)
      : await listenWith(await openGatewayServices(config, logger), logger);
  logger.info({ url: server.url, network: config.network, openMarketData: config.openMarketData }, 'order book API listening');
  logger.info({ url: server.dataApiUrl, requireKeys: config.dataApi.requireKeys }, 'data API listening');
  if (server.metricsUrl !== null) logger.info({ url: `${server.metricsUrl}/metrics` }, 'metrics listening');
  // After listen, not inside startServer: tests and benchmarks never run a companion, and it never delays readiness.
  const companion = startCompanion(server, config, logger);
  onStopSignals((signal) => shutdown(signal, server, companion, logger));
  // Another process may take the store over: stop serving and exit, for the supervisor to restart us.
  void server.services.leaseLost.then((error) => {
    logger.fatal({ err: error }, 'this process lost the right to write its store; stopping');
    shutdown('LEASE_LOST', server, companion, logger, 1);
  });
}

/**
 * The service as a process: configured from the environment (exit code 2 when that fails), listening,
 * and stopped gracefully on SIGINT and SIGTERM; with a companion beside it when one is given.
 */
export function serve(startCompanion: StartCompanion = () => null): void {
  run(startCompanion).catch((error: unknown) => {
    // A chain that is not the one configured is a configuration error too: exit 2, no stack.
    if (error instanceof ChainSetupError) {
      process.stderr.write(`configuration error: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
