import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { buildMetricsApp } from '../edges/http/metrics/metrics-app.js';
import type { Clock } from '../ports/clock.js';
import type { MetricsExposition } from '../ports/metrics.js';
import { type AppDeps, buildApp, buildDataApiApp } from './app.js';
import type { Config } from './config.js';
import { openServices, type Services } from './services.js';

/** How often the registry looks for changes made by the operator CLI. */
const REGISTRY_POLL_MS = 1_000;

/** What a process serves over HTTP: the apps' dependencies, and how to release them. */
export interface ServedDeps extends AppDeps {
  /** The recorded metrics in Prometheus text, for the METRICS_PORT listener; null when METRICS_PORT is unset. */
  readonly metricsExposition: MetricsExposition | null;
  /** Settles if the process lost the right to write its store (PostgreSQL): it must stop at once. */
  readonly leaseLost: Promise<Error>;
  close(): Promise<void>;
}

export interface RunningServer<S extends ServedDeps = Services> {
  readonly app: FastifyInstance;
  readonly services: S;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000. */
  readonly url: string;
  /** Base URL of the data API: its own port, or `url` with the data API's prefix. */
  readonly dataApiUrl: string;
  /** Base URL of the metrics listener (`GET /metrics`), or null without METRICS_PORT. */
  readonly metricsUrl: string | null;
  /** Stops accepting connections, lets in-flight requests finish, then closes the store. */
  close(): Promise<void>;
}

/** Builds the apps on `services` and listens (PORT, DATA_API_PORT, METRICS_PORT); closes the services if that fails. */
export async function listenWith<S extends ServedDeps>(services: S, logger: FastifyBaseLogger): Promise<RunningServer<S>> {
  const { config } = services;
  const app = await buildApp(services);
  const dataApp = config.dataApi.port === null ? undefined : await buildDataApiApp(services);
  const exposition = services.metricsExposition;
  const metricsApp = exposition === null ? undefined : await buildMetricsApp(exposition, logger);
  const closeApps = async () => {
    await Promise.all([app.close(), dataApp?.close(), metricsApp?.close()]);
  };
  const poll = setInterval(() => {
    services.registry.refresh().catch((error: unknown) => logger.error({ err: error }, 'registry refresh failed'));
  }, REGISTRY_POLL_MS);
  poll.unref();
  try {
    const url = await app.listen({ host: config.host, port: config.port });
    const dataBase = dataApp === undefined ? url : await dataApp.listen({ host: config.host, port: config.dataApi.port ?? 0 });
    const metricsUrl =
      metricsApp === undefined ? null : await metricsApp.listen({ host: config.host, port: config.metricsPort ?? 0 });
    let closing: Promise<void> | undefined;
    return {
      app,
      services,
      url,
      dataApiUrl: `${dataBase}${config.dataApi.prefix}`,
      metricsUrl,
      close: () => {
        closing ??= (async () => {
          clearInterval(poll);
          await closeApps();
          await services.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    clearInterval(poll);
    await closeApps();
    await services.close();
    throw error;
  }
}

/** The whole service in this process (ROLE=all), listening. */
export async function startServer(config: Config, logger: FastifyBaseLogger, clock?: Clock): Promise<RunningServer> {
  return listenWith(await openServices(config, logger, clock), logger);
}
