import { isAbsolute, resolve } from 'node:path';
import { isEvmAddress, isLedgerId, longZeroAddress } from '@dex/core';
import type { ChainConfig, SettlementConfig } from '../adapters/chain/chain-config.js';
import type { DataApiConfig } from '../application/data-api/data-api-config.js';
import { DEVNET_NATIVE_TOKEN_ID, DEVNET_PROTOCOL_TOKEN_ID, DEVNET_USD_TOKEN_ID } from '../application/markets/seed.js';
import { NETWORKS, type Network } from '../domain/network.js';
import type { StreamLimits } from '../edges/ws/stream-limits.js';
import { chainDeployment, checkDeployment } from './chain-deployment-config.js';
import { type ClusterConfig, clusterConfig } from './cluster-config.js';
import { ConfigError, type Env, flag, integer, oneOf, text, urlOf } from './env-values.js';
import { type WebTermsConfig, webTermsConfig } from './terms-config.js';

export type { ChainConfig, SettlementConfig } from '../adapters/chain/chain-config.js';
export type { DataApiConfig } from '../application/data-api/data-api-config.js';
export type { Network } from '../domain/network.js';
export type { StreamLimits } from '../edges/ws/stream-limits.js';
export type { ClusterConfig, Role } from './cluster-config.js';
export { ConfigError } from './env-values.js';
export type { WebTermsConfig } from './terms-config.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Everything the service reads from its environment, parsed and checked once at boot. */
export interface Config {
  readonly host: string;
  readonly port: number;
  /** Absolute folder for the SQLite file and generated secrets. */
  readonly dataDir: string;
  /** DATABASE_URL: the store on this PostgreSQL database instead of the SQLite file in DATA_DIR. */
  readonly databaseUrl: string | null;
  /**
   * REDIS_URL: the data API's quota counters in this Redis, shared by every process that serves the
   * store; REDIS_KEY_PREFIX (default `dex:<network>:`) keeps deployments that share a Redis apart.
   */
  readonly redis: { readonly url: string; readonly keyPrefix: string } | null;
  readonly network: Network;
  /** Public market data without a JWT (the July 2026 rollout); off: 401 and unmounted routes. */
  readonly openMarketData: boolean;
  readonly logLevel: LogLevel;
  /** Creates the devnet markets on the first start of an empty devnet store. */
  readonly seedDevnet: boolean;
  readonly chainId: number;
  /** The settlement chain, or `off` (devnet only): matching without settlement. */
  readonly chain: ChainConfig;
  /** The reactor of the signing domain; null on the embedded devnet chain, which deploys its own. */
  readonly reactorAddress: string | null;
  readonly signatureDomainName: string;
  readonly signatureDomainVersion: string;
  /** The wrapped native token native-coin books settle in (WRAPPED_NATIVE_ADDRESS; on the devnet its WHBAR); null: none. */
  readonly wrappedNativeAddress: string | null;
  /** HS256 key for access tokens; devnet generates one under DATA_DIR when unset. */
  readonly jwtSecret: string | undefined;
  readonly jwtTtlSeconds: number;
  readonly quoteSlippageBps: number;
  readonly quoteCacheMs: number;
  readonly tradesCacheMs: number;
  readonly booksCacheMs: number;
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
  /** Requests this slow or slower are logged at `info` like failures; the rest at `debug`. */
  readonly slowRequestMs: number;
  /** Mirror node REST base URL for the keys of `0.0.X` accounts; null: the devnet's own registry. */
  readonly mirrorNodeUrl: string | null;
  readonly challengeTtlSeconds: number;
  /** Worker threads verifying order signatures; 0 verifies on the main thread. */
  readonly verifyWorkers: number;
  /** Token buckets on the order routes, per IP and per account; null when switched off. */
  readonly orderRateLimit: { perIp: RateBucket; perAccount: RateBucket } | null;
  /** Token bucket per client address on `/auth/*` (challenges and verifies); null when AUTH_RATE_LIMIT is off. */
  readonly authRateLimit: RateBucket | null;
  readonly dataApi: DataApiConfig;
  /** Port of the metrics listener (`GET /metrics`, Prometheus text) on HOST; null: no metrics are served. */
  readonly metricsPort: number | null;
  readonly streams: StreamLimits;
  /** Folder of the built market web page served at `/` (WEB_ROOT); null: no page. */
  readonly webRoot: string | null;
  /** A data API key the page uses for its pools and farms pages (WEB_DATA_API_KEY): public by design. */
  readonly webDataApiKey: string | null;
  /** The texts the page asks an account to accept before it offers trading (WEB_TERMS); null: no such step. */
  readonly webTerms: WebTermsConfig | null;
  /** The devnet's market-making bot, which the live devnet (@dex/devnet) runs beside the API; null when switched off. */
  readonly marketMaker: MarketMakerConfig | null;
  /** Which part of the service this process is (ROLE), and how it reaches the others. */
  readonly cluster: ClusterConfig;
}

/** The live devnet's bot (`npm start`): it quotes every open book and takes liquidity now and then. */
export interface MarketMakerConfig {
  /** Time between two refreshes of its quotes. */
  readonly intervalMs: number;
}

/** A token bucket: `capacity` requests at once, refilled at `refillPerSecond`. */
export interface RateBucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
}

/** Chain ids of the ledger's networks (its JSON-RPC relay reports the same ones). */
const CHAIN_IDS: Record<Network, number> = { mainnet: 295, testnet: 296, devnet: 298 };
/** Signing-domain reactor of a devnet without a chain (CHAIN=off): anvil's first deployment address. */
const UNSETTLED_DEVNET_REACTOR = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

/** `burst/perSecond`, e.g. `200/100`. */
function bucket(env: Env, name: string, fallback: string): RateBucket {
  const raw = text(env, name, fallback);
  const match = /^([1-9][0-9]{0,6})\/([1-9][0-9]{0,6})$/.exec(raw);
  if (!match) throw new ConfigError(`${name} must look like burst/perSecond (e.g. 200/100), got "${raw}"`);
  return { capacity: Number(match[1]), refillPerSecond: Number(match[2]) };
}

function redisOf(env: Env, network: Network): Config['redis'] {
  const url = urlOf(env, 'REDIS_URL', ['redis:', 'rediss:'], 'a redis:// URL');
  return url === null ? null : { url, keyPrefix: text(env, 'REDIS_KEY_PREFIX', `dex:${network}:`) };
}

function httpUrl(env: Env, name: string): string | null {
  return urlOf(env, name, ['https:', 'http:'], 'an http(s) URL')?.replace(/\/+$/, '') ?? null;
}

/**
 * Settlement defaults per chain: the ledger caps a transaction at 15M gas; the devnet node's blocks
 * take 30M, and on it a block's fixed cost (its state root above all) is most of a batch's, so
 * larger batches settle more fills per second.
 */
const SETTLEMENT_DEFAULTS = {
  devnet: { batchFills: 250, txGasLimit: 30_000_000 },
  rpc: { batchFills: 100, txGasLimit: 15_000_000 },
} as const;

function settlementConfig(env: Env, chain: keyof typeof SETTLEMENT_DEFAULTS): SettlementConfig {
  const defaults = SETTLEMENT_DEFAULTS[chain];
  return {
    batchFills: integer(env, 'SETTLEMENT_BATCH_FILLS', defaults.batchFills, 1, 500),
    txGasLimit: integer(env, 'SETTLEMENT_TX_GAS_LIMIT', defaults.txGasLimit, 1_000_000, 100_000_000),
    simulate: oneOf(env, 'SETTLEMENT_SIMULATE', 'after-failure', ['always', 'after-failure'] as const),
    forgetExpired: flag(env, 'SETTLEMENT_FORGET_EXPIRED', true),
  };
}

function chainConfig(env: Env, network: Network): ChainConfig {
  const kind = oneOf(env, 'CHAIN', network === 'devnet' ? 'devnet' : 'rpc', ['devnet', 'rpc', 'off'] as const);
  if (kind !== 'rpc' && network !== 'devnet') throw new ConfigError(`CHAIN must be rpc on ${network}`);
  if (kind === 'off') return { kind };
  if (kind === 'devnet') {
    return {
      kind,
      port: integer(env, 'DEVNET_CHAIN_PORT', 0, 0, 65_535),
      stateIntervalSeconds: integer(env, 'DEVNET_CHAIN_STATE_INTERVAL_SECONDS', 2, 1, 3_600),
      historyBlocks: integer(env, 'DEVNET_CHAIN_HISTORY_BLOCKS', 64, 64, 100_000_000),
      compactEveryBlocks: integer(env, 'DEVNET_CHAIN_COMPACT_BLOCKS', 2_048, 64, 1_000_000_000),
      pastStates: integer(env, 'DEVNET_CHAIN_PAST_STATES', 64, 0, 1_000_000),
      orphanGraceMs: integer(env, 'DEVNET_CHAIN_ORPHAN_GRACE_MS', 60_000, 1_000, 86_400_000),
      anvil: { anvilPath: env.ANVIL_PATH || null, searchPath: env.PATH },
      settlement: settlementConfig(env, 'devnet'),
    };
  }
  const rpcUrl = httpUrl(env, 'CHAIN_RPC_URL');
  if (rpcUrl === null) throw new ConfigError('CHAIN_RPC_URL is required with CHAIN=rpc');
  const operatorKey = text(env, 'OPERATOR_PRIVATE_KEY', '');
  // A gateway or an engine of a cluster reads the chain and sends nothing: it holds no key.
  const settles = !['gateway', 'engine'].includes(text(env, 'ROLE', 'all'));
  const deployment = chainDeployment(env);
  const indexFrom = deployment === null ? null : BigInt(deployment.reactor.block);
  if (!settles && operatorKey === '') {
    return { kind, rpcUrl, operatorKey: null, indexFrom, deployment, settlement: settlementConfig(env, 'rpc') };
  }
  // The value is never echoed: it is a secret.
  if (!/^0x[0-9a-fA-F]{64}$/.test(operatorKey)) {
    throw new ConfigError('OPERATOR_PRIVATE_KEY must be 0x followed by 64 hex digits (required with CHAIN=rpc)');
  }
  return {
    kind,
    rpcUrl,
    operatorKey: operatorKey as `0x${string}`,
    indexFrom,
    deployment,
    settlement: settlementConfig(env, 'rpc'),
  };
}

/** What orders are signed for: the chain and the domain, checked against a deployment record when there is one. */
function signingOf(env: Env, network: Network, chain: ChainConfig, reactorAddress: string | null) {
  const chainId = integer(env, 'CHAIN_ID', CHAIN_IDS[network], 1, 2 ** 53 - 1);
  const signatureDomainName = text(env, 'SIGNATURE_DOMAIN_NAME', 'PartialFillLimitOrderReactor');
  const signatureDomainVersion = text(env, 'SIGNATURE_DOMAIN_VERSION', '1');
  if (chain.kind === 'rpc' && chain.deployment !== null) {
    checkDeployment(chain.deployment, {
      chainId,
      reactorAddress: reactorAddress as string,
      domainName: signatureDomainName,
      domainVersion: signatureDomainVersion,
    });
  }
  return { chainId, signatureDomainName, signatureDomainVersion };
}

/** The embedded devnet chain deploys its own reactor; elsewhere the address comes from the environment. */
function reactorOf(env: Env, chain: ChainConfig): string | null {
  if (chain.kind === 'devnet') {
    if (text(env, 'REACTOR_ADDRESS', '') !== '')
      throw new ConfigError('REACTOR_ADDRESS is set by the devnet chain itself (CHAIN=devnet)');
    return null;
  }
  const recorded = chain.kind === 'rpc' ? (chain.deployment?.reactor.address ?? '') : UNSETTLED_DEVNET_REACTOR;
  const address = text(env, 'REACTOR_ADDRESS', recorded);
  if (!isEvmAddress(address)) {
    throw new ConfigError(
      `REACTOR_ADDRESS must be a 0x-prefixed 20-byte address${chain.kind === 'rpc' ? ' (required with CHAIN=rpc unless CHAIN_DEPLOYMENT names a record)' : ''}`,
    );
  }
  return address;
}

function ledgerId(env: Env, name: string, fallback: string | null): string | null {
  const raw = text(env, name, fallback ?? '');
  if (raw === '') return null;
  if (!isLedgerId(raw)) throw new ConfigError(`${name} must be a ledger id such as 0.0.123456, got "${raw}"`);
  return raw;
}

const PREFIX = /^(\/[A-Za-z0-9._~-]+){0,8}$/;

function dataApiConfig(env: Env, network: Network, port: number): DataApiConfig {
  const ownPort =
    env.DATA_API_PORT === undefined || env.DATA_API_PORT === '' ? null : integer(env, 'DATA_API_PORT', 0, 0, 65_535);
  if (ownPort !== null && ownPort !== 0 && ownPort === port) throw new ConfigError('DATA_API_PORT must differ from PORT');
  // On the shared port the data API needs a prefix of its own; '/' asks for none.
  const rawPrefix = text(env, 'DATA_API_PREFIX', ownPort === null ? '/data' : '/');
  const prefix = rawPrefix === '/' ? '' : rawPrefix;
  if (!PREFIX.test(prefix))
    throw new ConfigError(`DATA_API_PREFIX must be a path such as /data (or / for none), got "${rawPrefix}"`);
  const requireKeys = flag(env, 'DATA_API_AUTH', true);
  if (!requireKeys && network !== 'devnet') {
    throw new ConfigError(`DATA_API_AUTH=false is for benchmarks and development on the devnet only, not ${network}`);
  }
  const devnet = network === 'devnet';
  return {
    port: ownPort,
    prefix,
    requireKeys,
    nativeTokenId: ledgerId(env, 'NATIVE_TOKEN_ID', devnet ? DEVNET_NATIVE_TOKEN_ID : null),
    usdTokenId: ledgerId(env, 'USD_TOKEN_ID', devnet ? DEVNET_USD_TOKEN_ID : null),
    protocolTokenId: ledgerId(env, 'PROTOCOL_TOKEN_ID', devnet ? DEVNET_PROTOCOL_TOKEN_ID : null),
    cacheMs: integer(env, 'DATA_API_CACHE_MS', 1_000, 0, 60_000),
  };
}

/** A port of its own for the metrics, never the API's: unset serves none. */
function metricsPortOf(env: Env, port: number, dataApiPort: number | null): number | null {
  if (env.METRICS_PORT === undefined || env.METRICS_PORT === '') return null;
  const metricsPort = integer(env, 'METRICS_PORT', 0, 0, 65_535);
  if (metricsPort !== 0 && (metricsPort === port || metricsPort === dataApiPort)) {
    throw new ConfigError('METRICS_PORT must differ from PORT and DATA_API_PORT');
  }
  return metricsPort;
}

/**
 * The bot runs where an issuer can fund its accounts (the embedded devnet chain) or where nothing
 * needs funding (CHAIN=off); on by default there, refused elsewhere.
 */
function marketMakerConfig(env: Env, network: Network, chain: ChainConfig): MarketMakerConfig | null {
  const fundable = network === 'devnet' && chain.kind !== 'rpc';
  const intervalMs = integer(env, 'MARKET_MAKER_INTERVAL_MS', 2_000, 100, 3_600_000);
  if (!flag(env, 'MARKET_MAKER', fundable)) return null;
  if (!fundable) {
    throw new ConfigError(
      `MARKET_MAKER=true needs the devnet with its embedded chain or CHAIN=off (no issuer funds its accounts on ${network === 'devnet' ? 'an RPC chain' : network})`,
    );
  }
  return { intervalMs };
}

/** `npm run build` puts the page in packages/web/dist; an empty WEB_ROOT serves none. */
function webRootOf(env: Env, cwd: string): string | null {
  const root = env.WEB_ROOT ?? './packages/web/dist';
  if (root === '') return null;
  return isAbsolute(root) ? root : resolve(cwd, root);
}

const API_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Every visitor of the page can read this key: the operator issues one for the page alone, with a
 * quota sized for it. The page calls the data API on its own origin, so it must share PORT.
 */
function webDataApiKeyOf(env: Env, dataApi: DataApiConfig): string | null {
  const key = env.WEB_DATA_API_KEY ?? '';
  if (key === '') return null;
  if (!API_KEY.test(key)) throw new ConfigError('WEB_DATA_API_KEY must be a data API key (npm run cli -- apikey issue)');
  if (dataApi.port !== null) throw new ConfigError('WEB_DATA_API_KEY needs the data API on PORT (DATA_API_PORT unset)');
  return key;
}

/**
 * The token the chain settles native-coin books in: on the devnet chain its WHBAR (the wrapper the
 * devnet installs at that token's ledger address), on any other chain WRAPPED_NATIVE_ADDRESS or none.
 */
function wrappedNativeOf(env: Env, chain: ChainConfig): string | null {
  const address = text(env, 'WRAPPED_NATIVE_ADDRESS', chain.kind === 'devnet' ? longZeroAddress(DEVNET_NATIVE_TOKEN_ID) : '');
  if (address === '') return null;
  if (!isEvmAddress(address) || BigInt(address) === 0n) {
    throw new ConfigError('WRAPPED_NATIVE_ADDRESS must be the 0x address of the wrapped native token (not the zero address)');
  }
  return address.toLowerCase();
}

/**
 * Whether a cancellation is final only once the reactor confirms it: wherever a chain settles.
 * Without one (CHAIN=off) the desk makes it final at once.
 */
export function cancelsWaitForReactor(config: Pick<Config, 'chain'>): boolean {
  return config.chain.kind !== 'off';
}

/** Parses and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const network = oneOf<Network>(env, 'NETWORK', 'devnet', NETWORKS);
  const dataDir = text(env, 'DATA_DIR', './data');
  const chain = chainConfig(env, network);
  const reactorAddress = reactorOf(env, chain);
  const jwtSecret = env.JWT_SECRET === '' ? undefined : env.JWT_SECRET;
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 bytes');
  }
  if (jwtSecret === undefined && network !== 'devnet') throw new ConfigError(`JWT_SECRET is required on ${network}`);
  const mirrorNodeUrl = httpUrl(env, 'MIRROR_NODE_URL');
  if (mirrorNodeUrl === null && network !== 'devnet') {
    throw new ConfigError(`MIRROR_NODE_URL is required on ${network} (the keys of 0.0.X accounts come from it)`);
  }

  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const databaseUrl = urlOf(env, 'DATABASE_URL', ['postgres:', 'postgresql:'], 'a postgres:// URL');
  const dataApi = dataApiConfig(env, network, port);
  const { chainId, signatureDomainName, signatureDomainVersion } = signingOf(env, network, chain, reactorAddress);

  return {
    host: text(env, 'HOST', '127.0.0.1'),
    port,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir),
    databaseUrl,
    redis: redisOf(env, network),
    network,
    openMarketData: flag(env, 'OPEN_MARKET_DATA', true),
    logLevel: oneOf<LogLevel>(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    // Parsed on every network so a typo fails loudly; only the devnet is ever seeded.
    seedDevnet: flag(env, 'SEED_DEVNET', true) && network === 'devnet',
    chainId,
    chain,
    reactorAddress,
    signatureDomainName,
    signatureDomainVersion,
    wrappedNativeAddress: wrappedNativeOf(env, chain),
    jwtSecret,
    jwtTtlSeconds: integer(env, 'JWT_TTL_SECONDS', 21_600, 60, 86_400),
    quoteSlippageBps: integer(env, 'QUOTE_SLIPPAGE_BPS', 50, 0, 9_999),
    quoteCacheMs: integer(env, 'QUOTE_CACHE_MS', 1_000, 0, 60_000),
    tradesCacheMs: integer(env, 'TRADES_CACHE_MS', 1_000, 0, 60_000),
    booksCacheMs: integer(env, 'BOOKS_CACHE_MS', 1_000, 0, 60_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1_024, 16_777_216),
    trustProxy: flag(env, 'TRUST_PROXY', false),
    slowRequestMs: integer(env, 'SLOW_REQUEST_MS', 1_000, 0, 3_600_000),
    mirrorNodeUrl,
    challengeTtlSeconds: integer(env, 'CHALLENGE_TTL_SECONDS', 300, 30, 3_600),
    verifyWorkers: integer(env, 'VERIFY_WORKERS', 1, 0, 16),
    // Off on the embedded default so a local bot is never throttled; on by default elsewhere.
    orderRateLimit: flag(env, 'ORDER_RATE_LIMIT', network !== 'devnet')
      ? {
          perIp: bucket(env, 'ORDER_RATE_LIMIT_IP', '200/100'),
          perAccount: bucket(env, 'ORDER_RATE_LIMIT_ACCOUNT', '100/50'),
        }
      : null,
    // On everywhere, with room for a bench's or a bot's burst of logins from one address.
    authRateLimit: flag(env, 'AUTH_RATE_LIMIT', true) ? bucket(env, 'AUTH_RATE_LIMIT_IP', '200/20') : null,
    dataApi,
    metricsPort: metricsPortOf(env, port, dataApi.port),
    streams: {
      maxPayloadBytes: integer(env, 'WS_MAX_PAYLOAD_BYTES', 4_096, 128, 1_048_576),
      maxBooksPerConnection: integer(env, 'WS_MAX_BOOKS', 20, 1, 1_000),
      maxConnections: integer(env, 'WS_MAX_CONNECTIONS', 10_000, 1, 1_000_000),
      maxConnectionsPerIp: integer(env, 'WS_MAX_CONNECTIONS_PER_IP', 100, 1, 1_000_000),
      sendBufferBytes: integer(env, 'WS_SEND_BUFFER_BYTES', 1_048_576, 1_024, 268_435_456),
      heartbeatMs: integer(env, 'WS_HEARTBEAT_MS', 30_000, 50, 3_600_000),
    },
    webRoot: webRootOf(env, cwd),
    webDataApiKey: webDataApiKeyOf(env, dataApi),
    webTerms: webTermsConfig(env, network, cwd),
    marketMaker: marketMakerConfig(env, network, chain),
    cluster: clusterConfig(env, network, databaseUrl, chain.kind),
  };
}
