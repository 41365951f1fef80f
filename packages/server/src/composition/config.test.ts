import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const CWD = '/srv/exchange';
const SECRET = 'k'.repeat(32);
const REACTOR = '0x1111111111111111111111111111111111111111';
const MIRROR = 'https://mirror.example.org';
/** A settlement chain over JSON-RPC, as every network but the devnet needs (a test key, not a secret). */
const RPC = { CHAIN: 'rpc', CHAIN_RPC_URL: 'https://relay.example.org/api', OPERATOR_PRIVATE_KEY: `0x${'ab'.repeat(32)}` };
/** The texts testnet and mainnet ask web page users to accept (WEB_TERMS): each one's file and version. */
const TERMS_DIR = mkdtempSync(join(tmpdir(), 'terms-'));
afterAll(() => rmSync(TERMS_DIR, { recursive: true, force: true }));
writeFileSync(join(TERMS_DIR, 'terms.txt'), 'The terms.');
writeFileSync(join(TERMS_DIR, 'risk.txt'), 'The risks.');
const TERMS = {
  TERMS_OF_SERVICE_FILE: join(TERMS_DIR, 'terms.txt'),
  TERMS_OF_SERVICE_VERSION: '1',
  RISK_NOTICE_FILE: join(TERMS_DIR, 'risk.txt'),
  RISK_NOTICE_VERSION: '1',
};

/** The ConfigError that loading `env` throws; fails the test when it loads. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, CWD);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig defaults', () => {
  it('runs an open devnet on 127.0.0.1:3000 with an empty environment', () => {
    const config = loadConfig({}, CWD);
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 3000,
      dataDir: '/srv/exchange/data',
      databaseUrl: null,
      redis: null,
      network: 'devnet',
      openMarketData: true,
      logLevel: 'info',
      seedDevnet: true,
      chainId: 298,
      chain: {
        kind: 'devnet',
        port: 0,
        stateIntervalSeconds: 2,
        historyBlocks: 64,
        compactEveryBlocks: 2_048,
        pastStates: 64,
        orphanGraceMs: 60_000,
        anvil: { anvilPath: null, searchPath: undefined },
        settlement: { batchFills: 250, txGasLimit: 30_000_000, simulate: 'after-failure', forgetExpired: true },
      },
      reactorAddress: null,
      signatureDomainName: 'PartialFillLimitOrderReactor',
      signatureDomainVersion: '1',
      wrappedNativeAddress: '0x00000000000000000000000000000000000003e9',
      jwtSecret: undefined,
      jwtTtlSeconds: 21_600,
      quoteSlippageBps: 50,
      quoteCacheMs: 1_000,
      tradesCacheMs: 1_000,
      booksCacheMs: 1_000,
      bodyLimitBytes: 1_048_576,
      trustProxy: false,
      slowRequestMs: 1_000,
      mirrorNodeUrl: null,
      challengeTtlSeconds: 300,
      verifyWorkers: 1,
      orderRateLimit: null,
      authRateLimit: { capacity: 200, refillPerSecond: 20 },
      dataApi: {
        port: null,
        prefix: '/data',
        requireKeys: true,
        nativeTokenId: '0.0.1001',
        usdTokenId: '0.0.1002',
        protocolTokenId: '0.0.1003',
        cacheMs: 1_000,
      },
      metricsPort: null,
      streams: {
        maxPayloadBytes: 4_096,
        maxBooksPerConnection: 20,
        maxConnections: 10_000,
        maxConnectionsPerIp: 100,
        sendBufferBytes: 1_048_576,
        heartbeatMs: 30_000,
      },
      webRoot: '/srv/exchange/packages/web/dist',
      webDataApiKey: null,
      webTerms: null,
      marketMaker: { intervalMs: 2_000 },
      cluster: { role: 'all', shards: 1, shard: 0, natsUrl: null, natsPrefix: 'dex.devnet', commandTimeoutMs: 5_000 },
    });
  });

  describe('the roles of a cluster', () => {
    const cluster = { DATABASE_URL: 'postgres://db/dex', NATS_URL: 'nats://127.0.0.1:4222' };

    it('reads a settler on the embedded devnet chain', () => {
      const config = loadConfig({ ...cluster, ROLE: 'settler' }, CWD);
      expect(config.cluster.role).toBe('settler');
      expect(config.chain.kind).toBe('devnet');
    });

    it('reads an engine of two shards', () => {
      expect(loadConfig({ ...cluster, ROLE: 'engine', ENGINE_SHARDS: '2', ENGINE_SHARD: '1' }, CWD).cluster).toEqual({
        role: 'engine',
        shards: 2,
        shard: 1,
        natsUrl: 'nats://127.0.0.1:4222',
        natsPrefix: 'dex.devnet',
        commandTimeoutMs: 5_000,
      });
    });

    it('refuses a role without PostgreSQL or NATS, a shard past the count and an unknown role', () => {
      expect(() => loadConfig({ ROLE: 'gateway', NATS_URL: cluster.NATS_URL }, CWD)).toThrow(/ROLE=gateway needs DATABASE_URL/);
      expect(() => loadConfig({ ROLE: 'engine', DATABASE_URL: cluster.DATABASE_URL }, CWD)).toThrow(/ROLE=engine needs NATS_URL/);
      expect(() => loadConfig({ ...cluster, ROLE: 'engine', ENGINE_SHARDS: '2', ENGINE_SHARD: '2' }, CWD)).toThrow(
        /ENGINE_SHARD must be between 0 and 1/,
      );
      expect(() => loadConfig({ ...cluster, ROLE: 'router' }, CWD)).toThrow(/ROLE must be one of all, gateway, engine, settler/);
      expect(() => loadConfig({ ...cluster, ROLE: 'settler', CHAIN: 'off' }, CWD)).toThrow(/ROLE=settler needs a chain/);
      expect(() => loadConfig({ ...cluster, NATS_PREFIX: 'dex.*' }, CWD)).toThrow(/NATS_PREFIX/);
    });
  });

  it('treats empty values like unset ones', () => {
    const env = { HOST: '', PORT: '', NETWORK: '', DATA_DIR: '', OPEN_MARKET_DATA: '', JWT_SECRET: '', LOG_LEVEL: '' };
    expect(loadConfig(env, CWD)).toEqual(loadConfig({}, CWD));
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'state/db' }, CWD).dataDir).toBe('/srv/exchange/state/db');
    expect(loadConfig({ DATA_DIR: '../shared' }, CWD).dataDir).toBe('/srv/shared');
  });

  it('keeps an absolute DATA_DIR as it is', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/dex' }, CWD).dataDir).toBe('/var/lib/dex');
  });

  it('takes the values that are set', () => {
    const config = loadConfig(
      {
        HOST: '0.0.0.0',
        PORT: '8080',
        LOG_LEVEL: 'debug',
        JWT_SECRET: SECRET,
        JWT_TTL_SECONDS: '60',
        QUOTE_SLIPPAGE_BPS: '9999',
        BODY_LIMIT_BYTES: '1024',
        TRUST_PROXY: 'yes',
        SLOW_REQUEST_MS: '0',
        ...RPC,
        REACTOR_ADDRESS: REACTOR,
        CHAIN_ID: '31337',
      },
      CWD,
    );
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'debug',
      jwtSecret: SECRET,
      jwtTtlSeconds: 60,
      quoteSlippageBps: 9999,
      bodyLimitBytes: 1024,
      trustProxy: true,
      slowRequestMs: 0,
      reactorAddress: REACTOR,
      chainId: 31337,
    });
  });
});

describe('loadConfig networks', () => {
  it.each([
    ['mainnet', 295],
    ['testnet', 296],
    ['devnet', 298],
  ])('uses chain id %s -> %i', (network, chainId) => {
    const config = loadConfig(
      { NETWORK: network, JWT_SECRET: SECRET, REACTOR_ADDRESS: REACTOR, MIRROR_NODE_URL: MIRROR, ...RPC, ...TERMS },
      CWD,
    );
    expect(config.network).toBe(network);
    expect(config.chainId).toBe(chainId);
  });

  it('seeds the devnet unless SEED_DEVNET says no', () => {
    expect(loadConfig({}, CWD).seedDevnet).toBe(true);
    expect(loadConfig({ SEED_DEVNET: 'off' }, CWD).seedDevnet).toBe(false);
  });

  it.each(['testnet', 'mainnet'])('never seeds %s, even with SEED_DEVNET=true', (network) => {
    const config = loadConfig(
      {
        NETWORK: network,
        SEED_DEVNET: 'true',
        JWT_SECRET: SECRET,
        REACTOR_ADDRESS: REACTOR,
        MIRROR_NODE_URL: MIRROR,
        ...RPC,
        ...TERMS,
      },
      CWD,
    );
    expect(config.seedDevnet).toBe(false);
  });

  it('leaves JWT_SECRET unset on the devnet, where a key is generated later', () => {
    expect(loadConfig({ NETWORK: 'devnet' }, CWD).jwtSecret).toBeUndefined();
  });
});

describe('loadConfig validation names the bad variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['PORT', ' 3000'],
    ['PORT', '1e3'],
    ['PORT', '0x10'],
    ['CHAIN_ID', '0'],
    ['JWT_TTL_SECONDS', '59'],
    ['JWT_TTL_SECONDS', '86401'],
    ['QUOTE_SLIPPAGE_BPS', '10000'],
    ['QUOTE_CACHE_MS', '60001'],
    ['TRADES_CACHE_MS', '60001'],
    ['BOOKS_CACHE_MS', '60001'],
    ['BODY_LIMIT_BYTES', '1023'],
    ['BODY_LIMIT_BYTES', '16777217'],
    ['DEVNET_CHAIN_HISTORY_BLOCKS', '63'],
    ['DEVNET_CHAIN_COMPACT_BLOCKS', '63'],
    ['DEVNET_CHAIN_PAST_STATES', '-1'],
    ['DEVNET_CHAIN_ORPHAN_GRACE_MS', '999'],
    ['SLOW_REQUEST_MS', '-1'],
    ['SLOW_REQUEST_MS', '3600001'],
    ['SLOW_REQUEST_MS', '1.5'],
    ['NETWORK', 'prod'],
    ['NETWORK', 'Mainnet'],
    ['LOG_LEVEL', 'verbose'],
    ['OPEN_MARKET_DATA', 'maybe'],
    ['OPEN_MARKET_DATA', 'truee'],
    ['TRUST_PROXY', '2'],
    ['SEED_DEVNET', 'sometimes'],
    ['REACTOR_ADDRESS', '0x123'],
    ['REACTOR_ADDRESS', '1111111111111111111111111111111111111111'],
    ['REACTOR_ADDRESS', '0X1111111111111111111111111111111111111111'],
    ['REACTOR_ADDRESS', `${REACTOR}1`],
    ['REACTOR_ADDRESS', '0x111111111111111111111111111111111111111g'],
    ['JWT_SECRET', 'k'.repeat(31)],
    ['DATA_API_PORT', '65536'],
    ['DATA_API_PORT', '3000'],
    ['METRICS_PORT', '65536'],
    ['METRICS_PORT', '-1'],
    ['METRICS_PORT', '9o90'],
    ['METRICS_PORT', '3000'],
    ['DATA_API_PREFIX', 'data'],
    ['DATA_API_PREFIX', '/data/'],
    ['DATA_API_PREFIX', '/da ta'],
    ['DATA_API_AUTH', 'maybe'],
    ['DATA_API_CACHE_MS', '60001'],
    ['NATIVE_TOKEN_ID', '1001'],
    ['USD_TOKEN_ID', '0.0.x'],
    ['PROTOCOL_TOKEN_ID', '0x1111111111111111111111111111111111111111'],
  ])('refuses %s=%j', (name, value) => {
    const error = configError({ [name]: value });
    expect(error.message).toContain(name);
  });

  it('accepts the range ends of PORT', () => {
    expect(loadConfig({ PORT: '0' }, CWD).port).toBe(0);
    expect(loadConfig({ PORT: '65535' }, CWD).port).toBe(65_535);
  });

  it('accepts every whole PORT up to 65535 and refuses every one above', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 65_535 }), (port) => {
        expect(loadConfig({ PORT: String(port) }, CWD).port).toBe(port);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 65_536, max: Number.MAX_SAFE_INTEGER }), (port) => {
        expect(configError({ PORT: String(port) }).message).toContain('PORT');
      }),
    );
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['on', true],
    ['false', false],
    ['0', false],
    ['no', false],
    ['off', false],
  ])('reads the flag spelling %j as %s', (spelling, value) => {
    expect(loadConfig({ OPEN_MARKET_DATA: spelling }, CWD).openMarketData).toBe(value);
    expect(loadConfig({ TRUST_PROXY: spelling }, CWD).trustProxy).toBe(value);
    expect(loadConfig({ SEED_DEVNET: spelling }, CWD).seedDevnet).toBe(value);
  });

  it('reads flag spellings in any letter case', () => {
    fc.assert(
      fc.property(
        fc.mixedCase(fc.constantFrom('true', 'yes', 'on')),
        fc.mixedCase(fc.constantFrom('false', 'no', 'off')),
        (on, off) => {
          expect(loadConfig({ OPEN_MARKET_DATA: on }, CWD).openMarketData).toBe(true);
          expect(loadConfig({ OPEN_MARKET_DATA: off }, CWD).openMarketData).toBe(false);
        },
      ),
    );
  });

  it('refuses flags with surrounding spaces', () => {
    expect(configError({ OPEN_MARKET_DATA: ' true' }).message).toContain('OPEN_MARKET_DATA');
    expect(configError({ OPEN_MARKET_DATA: 'true ' }).message).toContain('OPEN_MARKET_DATA');
  });

  it.each(['mainnet', 'testnet'])('requires REACTOR_ADDRESS on %s', (network) => {
    const error = configError({ NETWORK: network, JWT_SECRET: SECRET, ...RPC });
    expect(error.message).toContain('REACTOR_ADDRESS');
    expect(error.message).toContain('required with CHAIN=rpc');
  });

  it('accepts a REACTOR_ADDRESS with mixed-case hex digits', () => {
    const address = '0xAbCdEf0123456789aBcDeF0123456789ABCDEF01';
    expect(loadConfig({ CHAIN: 'off', REACTOR_ADDRESS: address }, CWD).reactorAddress).toBe(address);
  });

  it.each(['mainnet', 'testnet'])('requires JWT_SECRET on %s', (network) => {
    const error = configError({ NETWORK: network, REACTOR_ADDRESS: REACTOR, ...RPC });
    expect(error.message).toContain('JWT_SECRET');
    expect(error.message).toContain(network);
  });

  it('requires JWT_SECRET on testnet even when it is set to the empty string', () => {
    expect(configError({ NETWORK: 'testnet', REACTOR_ADDRESS: REACTOR, JWT_SECRET: '', ...RPC }).message).toContain('JWT_SECRET');
  });

  it('counts JWT_SECRET length in UTF-8 bytes, not characters', () => {
    // 'é' is two bytes: 16 of them make 32 bytes, 31 bytes with one ASCII letter less.
    expect(loadConfig({ JWT_SECRET: 'é'.repeat(16) }, CWD).jwtSecret).toBe('é'.repeat(16));
    expect(configError({ JWT_SECRET: `${'é'.repeat(15)}a` }).message).toContain('JWT_SECRET');
    expect(loadConfig({ JWT_SECRET: 'k'.repeat(32) }, CWD).jwtSecret).toBe('k'.repeat(32));
  });

  it('never repeats a rejected JWT_SECRET in the error message', () => {
    const secret = 'short-but-secret-value';
    const error = configError({ JWT_SECRET: secret });
    expect(error.message).not.toContain(secret);
  });

  it('refuses a short JWT_SECRET on the devnet too', () => {
    expect(configError({ NETWORK: 'devnet', JWT_SECRET: 'abc' }).message).toContain('JWT_SECRET');
  });
});

describe('loadConfig trading settings', () => {
  it.each(['mainnet', 'testnet'])('requires MIRROR_NODE_URL on %s', (network) => {
    expect(configError({ NETWORK: network, JWT_SECRET: SECRET, REACTOR_ADDRESS: REACTOR, ...RPC }).message).toContain(
      'MIRROR_NODE_URL',
    );
  });

  it('refuses a MIRROR_NODE_URL that is not an http(s) URL', () => {
    expect(configError({ MIRROR_NODE_URL: 'ftp://mirror' }).message).toContain('MIRROR_NODE_URL');
    expect(configError({ MIRROR_NODE_URL: 'not a url' }).message).toContain('MIRROR_NODE_URL');
  });

  it('takes a postgres:// DATABASE_URL as it is, and refuses any other URL', () => {
    const url = 'postgres://exchange@db.internal:5432/exchange';
    expect(loadConfig({ DATABASE_URL: url }, CWD).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/exchange' }, CWD).databaseUrl).toBe('postgresql://db/exchange');
    expect(configError({ DATABASE_URL: 'mysql://db/exchange' }).message).toMatch(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(configError({ DATABASE_URL: 'exchange' }).message).toContain('DATABASE_URL');
  });

  it('takes a redis:// REDIS_URL as it is with its key prefix, and refuses any other URL', () => {
    expect(loadConfig({ REDIS_URL: 'redis://cache.internal:6379/2' }, CWD).redis).toEqual({
      url: 'redis://cache.internal:6379/2',
      keyPrefix: 'dex:devnet:',
    });
    expect(loadConfig({ REDIS_URL: 'rediss://cache.internal', REDIS_KEY_PREFIX: 'blue:' }, CWD).redis).toEqual({
      url: 'rediss://cache.internal',
      keyPrefix: 'blue:',
    });
    expect(configError({ REDIS_URL: 'http://cache.internal' }).message).toMatch(/REDIS_URL must be a redis:\/\/ URL/);
  });

  it('drops trailing slashes of MIRROR_NODE_URL', () => {
    expect(loadConfig({ MIRROR_NODE_URL: 'https://mirror.example.org/' }, CWD).mirrorNodeUrl).toBe('https://mirror.example.org');
  });

  it('switches order rate limits on by default off the devnet, with the default buckets', () => {
    const config = loadConfig(
      { NETWORK: 'testnet', JWT_SECRET: SECRET, REACTOR_ADDRESS: REACTOR, MIRROR_NODE_URL: MIRROR, ...RPC, ...TERMS },
      CWD,
    );
    expect(config.orderRateLimit).toEqual({
      perIp: { capacity: 200, refillPerSecond: 100 },
      perAccount: { capacity: 100, refillPerSecond: 50 },
    });
  });

  it('reads burst/perSecond rate buckets', () => {
    const config = loadConfig({ ORDER_RATE_LIMIT: 'on', ORDER_RATE_LIMIT_IP: '10/5', ORDER_RATE_LIMIT_ACCOUNT: '3/1' }, CWD);
    expect(config.orderRateLimit).toEqual({
      perIp: { capacity: 10, refillPerSecond: 5 },
      perAccount: { capacity: 3, refillPerSecond: 1 },
    });
  });

  it.each(['10', '10/0', '0/1', '1.5/1', '10/5/1'])('refuses the rate bucket %s', (value) => {
    expect(configError({ ORDER_RATE_LIMIT: 'on', ORDER_RATE_LIMIT_IP: value }).message).toContain('ORDER_RATE_LIMIT_IP');
  });
});

describe('loadConfig settlement chain', () => {
  it('starts its own devnet chain by default, which deploys the reactor', () => {
    const config = loadConfig({}, CWD);
    expect(config.chain.kind).toBe('devnet');
    expect(config.reactorAddress).toBeNull();
    expect(configError({ REACTOR_ADDRESS: REACTOR }).message).toContain('REACTOR_ADDRESS is set by the devnet chain');
  });

  it("settles native-coin books in the devnet's WHBAR by default, elsewhere in the WRAPPED_NATIVE_ADDRESS given", () => {
    expect(loadConfig({}, CWD).wrappedNativeAddress).toBe('0x00000000000000000000000000000000000003e9');
    expect(loadConfig({ WRAPPED_NATIVE_ADDRESS: REACTOR }, CWD).wrappedNativeAddress).toBe(REACTOR.toLowerCase());
    for (const bad of ['0x1234', '0x0000000000000000000000000000000000000000']) {
      expect(configError({ WRAPPED_NATIVE_ADDRESS: bad }).message).toContain('WRAPPED_NATIVE_ADDRESS must be');
    }
  });

  it('runs matching without settlement only on the devnet (CHAIN=off)', () => {
    expect(loadConfig({ CHAIN: 'off' }, CWD)).toMatchObject({
      chain: { kind: 'off' },
      reactorAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    });
    expect(configError({ NETWORK: 'testnet', CHAIN: 'off', JWT_SECRET: SECRET, MIRROR_NODE_URL: MIRROR }).message).toBe(
      'CHAIN must be rpc on testnet',
    );
  });

  it('takes the RPC chain, the operator key and the settlement limits from the environment', () => {
    const config = loadConfig(
      {
        ...RPC,
        REACTOR_ADDRESS: REACTOR,
        SETTLEMENT_BATCH_FILLS: '20',
        SETTLEMENT_TX_GAS_LIMIT: '8000000',
        SETTLEMENT_SIMULATE: 'always',
        SETTLEMENT_FORGET_EXPIRED: 'false',
      },
      CWD,
    );
    expect(config.chain).toEqual({
      kind: 'rpc',
      rpcUrl: 'https://relay.example.org/api',
      operatorKey: RPC.OPERATOR_PRIVATE_KEY,
      indexFrom: null,
      deployment: null,
      settlement: { batchFills: 20, txGasLimit: 8_000_000, simulate: 'always', forgetExpired: false },
    });
  });

  describe('CHAIN_DEPLOYMENT', () => {
    const record = {
      format: 'dex-deployment/1',
      chainId: 296,
      permit2: { address: '0x000000000022D473030F116dDEE9F6B43aC78BA3', deployedHere: false },
      reactor: {
        address: REACTOR,
        block: '1234',
        domain: { name: 'PartialFillLimitOrderReactor', version: '1' },
        changeDelaySeconds: '172800',
      },
      amm: null,
    };
    const dir = mkdtempSync(join(tmpdir(), 'deployment-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    let files = 0;
    const withRecord = (content: unknown, env: Record<string, string> = {}) => {
      const file = join(dir, `deployment-${files++}.json`);
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
      return { ...RPC, CHAIN_ID: '296', CHAIN_DEPLOYMENT: file, ...env };
    };

    it('takes the reactor and the block to index from out of the record chain deploy wrote', () => {
      const config = loadConfig(withRecord(record), CWD);
      expect(config.reactorAddress).toBe(REACTOR);
      expect(config.chain).toMatchObject({ kind: 'rpc', indexFrom: 1234n, deployment: { chainId: 296 } });
    });

    it('refuses a record of another chain, reactor or signature domain, naming both sides', () => {
      expect(configError(withRecord(record, { CHAIN_ID: '295' })).message).toContain('is of chain 296, CHAIN_ID is 295');
      const other = `0x${'2'.repeat(40)}`;
      expect(configError(withRecord(record, { REACTOR_ADDRESS: other })).message).toBe(
        `REACTOR_ADDRESS ${other} is not the reactor of CHAIN_DEPLOYMENT (${REACTOR} on chain 296)`,
      );
      expect(configError(withRecord(record, { SIGNATURE_DOMAIN_VERSION: '2' })).message).toContain(
        'SIGNATURE_DOMAIN_NAME/VERSION',
      );
    });

    it('refuses a file that is missing, no JSON or no record, saying what is wrong', () => {
      expect(configError({ ...RPC, CHAIN_DEPLOYMENT: '/nowhere/deployment.json' }).message).toBe(
        'CHAIN_DEPLOYMENT names /nowhere/deployment.json, which does not exist',
      );
      expect(configError(withRecord('{')).message).toMatch(/^CHAIN_DEPLOYMENT .+ is not JSON$/);
      expect(configError(withRecord({ ...record, reactor: { ...record.reactor, address: 'x' } })).message).toMatch(
        /is not a deployment record of this service: reactor.address must be a 0x address$/,
      );
    });
  });

  it('settles on an RPC chain in batches that fit the ledger: 100 fills and 15M gas by default', () => {
    expect(loadConfig({ ...RPC, REACTOR_ADDRESS: REACTOR }, CWD).chain).toMatchObject({
      settlement: { batchFills: 100, txGasLimit: 15_000_000, simulate: 'after-failure', forgetExpired: true },
    });
  });

  it('requires the RPC address and a well-formed operator key, and never echoes the key', () => {
    expect(configError({ CHAIN: 'rpc', REACTOR_ADDRESS: REACTOR }).message).toContain('CHAIN_RPC_URL');
    const key = `0x${'cd'.repeat(31)}`;
    const error = configError({ ...RPC, OPERATOR_PRIVATE_KEY: key, REACTOR_ADDRESS: REACTOR });
    expect(error.message).toContain('OPERATOR_PRIVATE_KEY');
    expect(error.message).not.toContain(key);
    expect(configError({ ...RPC, SETTLEMENT_BATCH_FILLS: '501', REACTOR_ADDRESS: REACTOR }).message).toContain(
      'SETTLEMENT_BATCH_FILLS',
    );
    expect(configError({ CHAIN: 'sepolia' }).message).toContain('CHAIN');
  });

  it('asks no operator key of a gateway or an engine of a cluster, and still asks it of a settler', () => {
    const cluster = { DATABASE_URL: 'postgres://db/dex', NATS_URL: 'nats://127.0.0.1:4222', REACTOR_ADDRESS: REACTOR };
    const keyless = { ...RPC, OPERATOR_PRIVATE_KEY: '', ...cluster };
    for (const role of ['gateway', 'engine']) {
      expect(loadConfig({ ...keyless, ROLE: role }, CWD).chain).toMatchObject({ kind: 'rpc', operatorKey: null });
    }
    expect(configError({ ...keyless, ROLE: 'settler' }).message).toContain('OPERATOR_PRIVATE_KEY');
    expect(configError({ ...keyless }).message).toContain('OPERATOR_PRIVATE_KEY');
  });
});

describe('loadConfig metrics', () => {
  it('serves no metrics unless METRICS_PORT is set, and then on that port', () => {
    expect(loadConfig({}, CWD).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '' }, CWD).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }, CWD).metricsPort).toBe(9464);
    expect(loadConfig({ METRICS_PORT: '0', PORT: '0' }, CWD).metricsPort).toBe(0);
  });

  it('refuses a metrics port shared with the order book API or the data API', () => {
    expect(configError({ METRICS_PORT: '8080', PORT: '8080' }).message).toContain('METRICS_PORT must differ');
    expect(configError({ METRICS_PORT: '8081', DATA_API_PORT: '8081' }).message).toContain('METRICS_PORT must differ');
  });
});

describe('loadConfig data API', () => {
  const testnet = { NETWORK: 'testnet', JWT_SECRET: SECRET, REACTOR_ADDRESS: REACTOR, MIRROR_NODE_URL: MIRROR, ...RPC, ...TERMS };

  it('serves the data API on its own port without a prefix when DATA_API_PORT is set', () => {
    expect(loadConfig({ DATA_API_PORT: '8081' }, CWD).dataApi).toMatchObject({ port: 8081, prefix: '' });
    expect(loadConfig({ DATA_API_PORT: '8081', DATA_API_PREFIX: '/v1' }, CWD).dataApi).toMatchObject({
      port: 8081,
      prefix: '/v1',
    });
    expect(loadConfig({ DATA_API_PORT: '0', PORT: '0' }, CWD).dataApi.port).toBe(0);
  });

  it('takes a path prefix on the shared port, and / for none', () => {
    expect(loadConfig({ DATA_API_PREFIX: '/api/v1' }, CWD).dataApi).toMatchObject({ port: null, prefix: '/api/v1' });
    expect(loadConfig({ DATA_API_PREFIX: '/' }, CWD).dataApi.prefix).toBe('');
  });

  it('switches key checking off only on the devnet', () => {
    expect(loadConfig({ DATA_API_AUTH: 'false' }, CWD).dataApi.requireKeys).toBe(false);
    const error = configError({ ...testnet, DATA_API_AUTH: 'false' });
    expect(error.message).toContain('DATA_API_AUTH');
    expect(error.message).toContain('testnet');
    expect(loadConfig({ ...testnet, DATA_API_AUTH: 'true' }, CWD).dataApi.requireKeys).toBe(true);
  });

  it('prices nothing off the devnet until the native, USD and protocol tokens are named', () => {
    expect(loadConfig(testnet, CWD).dataApi).toMatchObject({ nativeTokenId: null, usdTokenId: null, protocolTokenId: null });
    const named = loadConfig(
      { ...testnet, NATIVE_TOKEN_ID: '0.0.15058', USD_TOKEN_ID: '0.0.429274', PROTOCOL_TOKEN_ID: '0.0.1183558' },
      CWD,
    );
    expect(named.dataApi).toMatchObject({ nativeTokenId: '0.0.15058', usdTokenId: '0.0.429274', protocolTokenId: '0.0.1183558' });
  });
});

describe('loadConfig stream limits', () => {
  it('reads every WebSocket bound', () => {
    const config = loadConfig(
      {
        WS_MAX_PAYLOAD_BYTES: '128',
        WS_MAX_BOOKS: '3',
        WS_MAX_CONNECTIONS: '5000',
        WS_MAX_CONNECTIONS_PER_IP: '2000',
        WS_SEND_BUFFER_BYTES: '65536',
        WS_HEARTBEAT_MS: '250',
      },
      CWD,
    );
    expect(config.streams).toEqual({
      maxPayloadBytes: 128,
      maxBooksPerConnection: 3,
      maxConnections: 5_000,
      maxConnectionsPerIp: 2_000,
      sendBufferBytes: 65_536,
      heartbeatMs: 250,
    });
  });

  it.each([
    ['WS_MAX_PAYLOAD_BYTES', '127'],
    ['WS_MAX_BOOKS', '0'],
    ['WS_MAX_CONNECTIONS', '0'],
    ['WS_MAX_CONNECTIONS_PER_IP', '-1'],
    ['WS_SEND_BUFFER_BYTES', '1023'],
    ['WS_HEARTBEAT_MS', '49'],
    ['WS_HEARTBEAT_MS', '1e3'],
  ])('refuses %s=%s', (name, value) => {
    expect(configError({ [name]: value }).message).toContain(name);
  });
});

describe('loadConfig market maker', () => {
  it('runs the bot on the devnet, with its embedded chain or without a chain, unless MARKET_MAKER says no', () => {
    expect(loadConfig({}, CWD).marketMaker).toEqual({ intervalMs: 2_000 });
    expect(loadConfig({ CHAIN: 'off' }, CWD).marketMaker).toEqual({ intervalMs: 2_000 });
    expect(loadConfig({ MARKET_MAKER: 'false' }, CWD).marketMaker).toBeNull();
    expect(loadConfig({ MARKET_MAKER: 'true', MARKET_MAKER_INTERVAL_MS: '500' }, CWD).marketMaker).toEqual({ intervalMs: 500 });
  });

  it('is off by default where no issuer can fund its accounts, and refused there when asked for', () => {
    const testnet = {
      NETWORK: 'testnet',
      JWT_SECRET: SECRET,
      MIRROR_NODE_URL: MIRROR,
      REACTOR_ADDRESS: REACTOR,
      ...RPC,
      ...TERMS,
    };
    expect(loadConfig(testnet, CWD).marketMaker).toBeNull();
    expect(loadConfig({ ...testnet, NETWORK: 'mainnet' }, CWD).marketMaker).toBeNull();
    expect(loadConfig({ ...RPC, REACTOR_ADDRESS: REACTOR }, CWD).marketMaker).toBeNull();
    expect(configError({ ...testnet, MARKET_MAKER: 'true' }).message).toMatch(/^MARKET_MAKER=true .*testnet/);
    expect(configError({ ...testnet, NETWORK: 'mainnet', MARKET_MAKER: '1' }).message).toMatch(/^MARKET_MAKER=true .*mainnet/);
    expect(configError({ ...RPC, REACTOR_ADDRESS: REACTOR, MARKET_MAKER: 'yes' }).message).toMatch(
      /^MARKET_MAKER=true .*RPC chain/,
    );
  });

  it.each([
    ['MARKET_MAKER', 'sometimes'],
    ['MARKET_MAKER_INTERVAL_MS', '99'],
    ['MARKET_MAKER_INTERVAL_MS', '3600001'],
    ['MARKET_MAKER_INTERVAL_MS', '2s'],
  ])('refuses %s=%s', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(`^${name} `));
  });

  it('checks the interval even when the bot is off, so a typo fails loudly', () => {
    expect(configError({ MARKET_MAKER: 'false', MARKET_MAKER_INTERVAL_MS: 'fast' }).message).toMatch(
      /^MARKET_MAKER_INTERVAL_MS /,
    );
  });
});

describe('loadConfig web page', () => {
  it('serves the built page from WEB_ROOT, relative to the working folder, or none when it is empty', () => {
    expect(loadConfig({ WEB_ROOT: 'site' }, CWD).webRoot).toBe('/srv/exchange/site');
    expect(loadConfig({ WEB_ROOT: '/var/www/page' }, CWD).webRoot).toBe('/var/www/page');
    expect(loadConfig({ WEB_ROOT: '' }, CWD).webRoot).toBeNull();
  });

  it('gives the page a data API key only in the key format, and only with the data API on PORT', () => {
    const key = '0b6f3c2e-8d1a-4e5f-9a7b-123456789abc';
    expect(loadConfig({ WEB_DATA_API_KEY: key }, CWD).webDataApiKey).toBe(key);
    expect(loadConfig({ WEB_DATA_API_KEY: '' }, CWD).webDataApiKey).toBeNull();
    expect(() => loadConfig({ WEB_DATA_API_KEY: 'not-a-key' }, CWD)).toThrow(/WEB_DATA_API_KEY must be a data API key/);
    expect(() => loadConfig({ WEB_DATA_API_KEY: key, DATA_API_PORT: '3001' }, CWD)).toThrow(/needs the data API on PORT/);
  });
});
