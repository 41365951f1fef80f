import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeStrayTemps } from '@dex/contracts';
import { type Eip712Domain, OrderHasher } from '@dex/core';
import type { FastifyBaseLogger } from 'fastify';
import { DevnetAccountKeys } from '../adapters/accounts/devnet-account-keys.js';
import { MirrorNodeAccountKeys } from '../adapters/accounts/mirror-node-account-keys.js';
import { AmmIndexer } from '../adapters/chain/amm-indexer.js';
import { CancelRelay } from '../adapters/chain/cancel-relay.js';
import type { ChainContext } from '../adapters/chain/chain-context.js';
import { ChainReconciler } from '../adapters/chain/chain-reconciler.js';
import { ChainWatch } from '../adapters/chain/chain-watch.js';
import { ChainFundsReader } from '../adapters/chain/funds-reader.js';
import { openChain } from '../adapters/chain/open-chain.js';
import { OperatorTransactions } from '../adapters/chain/operator-transactions.js';
import { ReactorIndexer } from '../adapters/chain/reactor-indexer.js';
import { Settler, type SettlerDeps } from '../adapters/chain/settler.js';
import { VerifyPool } from '../adapters/crypto/verify-pool.js';
import { resolveJwtSecret } from '../adapters/secrets/jwt-secret.js';
import { openSqliteStore } from '../adapters/sqlite/sqlite-store.js';
import { FeeSchedule } from '../application/accounts/fee-schedule.js';
import { AccessTokens } from '../application/auth/access-tokens.js';
import { ChallengeBook } from '../application/auth/challenge-book.js';
import { AccountDirectory } from '../application/auth/trading-identity.js';
import { WalletLogin } from '../application/auth/wallet-login.js';
import { EngineHost } from '../application/engine/engine-host.js';
import { MarketRegistry } from '../application/markets/market-registry.js';
import { seedDevnet } from '../application/markets/seed.js';
import { CancelAfterSwitches } from '../application/orders/cancel-after.js';
import { DeskEvents } from '../application/orders/desk-events.js';
import { OrderBuilder } from '../application/orders/order-builder.js';
import { OrderIntake } from '../application/orders/order-intake.js';
import { OrderQueries } from '../application/orders/order-queries.js';
import { TradingDesk } from '../application/orders/trading-desk.js';
import { keccak256 } from '../domain/signatures/keccak.js';
import type { AccountKeyRegistry } from '../ports/account-keys.js';
import { type Clock, systemClock } from '../ports/clock.js';
import type { Store } from '../ports/store/ports.js';
import type { AppDeps } from './app.js';
import type { Config } from './config.js';

/** Settlement on the chain: absent when CHAIN=off. */
export interface Settlement {
  readonly chain: ChainContext;
  readonly transactions: OperatorTransactions;
  readonly indexer: ReactorIndexer;
  /** Pools, farms and staking read from the AMM; null when the chain has none. */
  readonly amm: AmmIndexer | null;
  readonly settler: Settler;
  readonly cancels: CancelRelay;
}

/** The wired service graph of one process, and how to release it. */
export interface Services extends AppDeps {
  readonly settlement: Settlement | null;
  close(): Promise<void>;
}

/** Path of the embedded store for a network. */
export function storeFile(config: Config): string {
  return join(config.dataDir, `${config.network}.sqlite`);
}

/** How often the indexers look for new reactor and AMM events. */
const INDEX_POLL_MS = 500;
/** How often resting orders are checked against their deadlines, and dead-man switches against their trigger times. */
const EXPIRY_SWEEP_MS = 1_000;
/** How often nonces that can no longer be used are forgotten. */
const NONCE_PURGE_MS = 60_000;

function accountKeysOf(config: Config, store: Store, clock: Clock): AccountKeyRegistry {
  return config.mirrorNodeUrl === null
    ? new DevnetAccountKeys(store.accountKeys)
    : new MirrorNodeAccountKeys({ baseUrl: config.mirrorNodeUrl, clock });
}

/**
 * Starts the settler, the relay and the indexer after reconciling with the chain, follows the
 * chain (reconciling again whenever it loses blocks), and registers their stop.
 */
async function startSettlement(
  config: Config,
  chain: ChainContext,
  deps: Pick<SettlerDeps, 'store' | 'registry' | 'fees' | 'clock' | 'logger'> & { deskEvents: DeskEvents; desk: TradingDesk },
  closers: (() => Promise<void>)[],
): Promise<Settlement> {
  if (config.chain.kind === 'off') throw new Error('settlement needs a chain');
  const transactions = new OperatorTransactions(chain);
  const watch = new ChainWatch(chain);
  const amm = chain.amm === null ? null : new AmmIndexer(chain, chain.amm, deps.store, deps.logger, watch, deps.desk);
  const indexer = new ReactorIndexer(chain, deps.store, deps.desk, deps.clock, deps.logger, watch, amm);
  const settler = new Settler({ ...deps, chain, transactions, indexer, config: config.chain.settlement });
  // The AMM is read beside the reactor: rewound with it, caught up at the same polls.
  const reconciler = new ChainReconciler({ ...deps, indexer, transactions, watch, followers: amm === null ? [] : [amm] });
  const cancels = new CancelRelay(chain, transactions, indexer, deps.store, deps.logger, async () => {
    await reconciler.verify();
  });
  // The engines route takers into pools from the reserves recorded so far, until the next Sync.
  await amm
    ?.reportReserves()
    .catch((error: unknown) => deps.logger.warn({ err: error }, "the engines could not be told the pools' reserves"));
  await reconciler.start(chain.headAtStart);
  chain.restarts?.subscribe((head) => {
    reconciler
      .restarted(head)
      .then(() => {
        settler.wake();
        cancels.wake();
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'reconciling with the restarted chain failed'));
  });
  await settler.start();
  cancels.start();
  // New trades and cancellations wake their loops at once instead of at the next idle check.
  const unsubscribe = deps.deskEvents.subscribe((commit) => {
    if (commit.trades.length > 0) settler.wake();
    cancels.wake();
  });
  closers.push(async () => unsubscribe());
  closers.push(() => settler.stop());
  closers.push(() => cancels.stop());
  let following: Promise<void> | null = null;
  const follow = (): Promise<void> =>
    reconciler
      .follow()
      .then((resend) => {
        if (!resend) return;
        settler.wake();
        cancels.wake();
      })
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'following the chain failed'));
  const poll = setInterval(() => {
    following ??= follow().finally(() => {
      following = null;
    });
  }, INDEX_POLL_MS);
  poll.unref();
  closers.push(async () => {
    clearInterval(poll);
    await following;
    await indexer.catchUp().catch(() => {});
  });
  return { chain, transactions, indexer, amm, settler, cancels };
}

/**
 * Opens the store (migrating it), seeds the devnet on first start, loads the registry, rebuilds the
 * books from the stored open orders and wires the trading services.
 */
/** Creates DATA_DIR (owner-only); files in it are written by rename, and a crash mid-write can leave the temp file. */
function openDataDir(dataDir: string, logger: FastifyBaseLogger): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const stray = removeStrayTemps(dataDir);
  if (stray.length > 0) logger.info({ files: stray }, 'removed temp files a crashed write left in DATA_DIR');
}

export async function openServices(config: Config, logger: FastifyBaseLogger, clock: Clock = systemClock): Promise<Services> {
  openDataDir(config.dataDir, logger);
  const store = await openSqliteStore(storeFile(config));
  const closers: (() => Promise<void>)[] = [() => store.close()];
  const close = async () => {
    for (const closer of closers.reverse()) await closer();
  };
  try {
    if (config.seedDevnet && (await seedDevnet(store, clock.now()))) logger.info('seeded the devnet markets');
    const registry = new MarketRegistry(store);
    await registry.load();
    const engines = new EngineHost(registry);
    const chain = await openChain(config, store, logger);
    if (chain !== null) closers.push(() => chain.close());
    const deskEvents = new DeskEvents(logger);
    const desk = await TradingDesk.open(registry, engines, store, clock, logger, deskEvents, { confirmCancels: chain !== null });
    const tokens = new AccessTokens(resolveJwtSecret(config), config.network, config.jwtTtlSeconds, clock);
    const verifier = await VerifyPool.start({ workers: config.verifyWorkers });
    closers.push(() => verifier.close());

    const domain: Eip712Domain = {
      name: config.signatureDomainName,
      version: config.signatureDomainVersion,
      chainId: config.chainId,
      verifyingContract: (chain?.reactor.toLowerCase() ?? config.reactorAddress) as Eip712Domain['verifyingContract'],
    };
    const hasher = new OrderHasher(domain, keccak256);
    const directory = new AccountDirectory(accountKeysOf(config, store, clock));
    const fees = new FeeSchedule(store.feeOverrides);
    const funds = chain === null ? null : new ChainFundsReader(chain);
    const settlement =
      chain === null
        ? null
        : await startSettlement(config, chain, { store, registry, fees, desk, deskEvents, clock, logger }, closers);
    const challenges = new ChallengeBook({ ttlMs: config.challengeTtlSeconds * 1000, perAccount: 5, total: 100_000 });

    const cancelAfter = await CancelAfterSwitches.open(store, desk, clock, logger);
    // A switch whose time passed while the service was down fires before the first request.
    await cancelAfter.fireDue();
    const sweep = setInterval(() => {
      desk.expireDue().catch((error: unknown) => logger.error({ err: error }, 'expiring orders failed'));
      void cancelAfter.fireDue();
    }, EXPIRY_SWEEP_MS);
    const purge = setInterval(() => {
      store.nonces.purgeExpired(clock.now()).catch((error: unknown) => logger.error({ err: error }, 'purging nonces failed'));
    }, NONCE_PURGE_MS);
    sweep.unref();
    purge.unref();
    closers.push(async () => {
      clearInterval(sweep);
      clearInterval(purge);
    });

    return {
      config,
      store,
      registry,
      engines,
      tokens,
      clock,
      logger,
      domain,
      desk,
      cancelAfter,
      settlement,
      deskEvents,
      directory,
      fees,
      funds,
      login: new WalletLogin(challenges, directory, tokens, clock, { name: config.network, chainId: config.chainId }),
      builder: new OrderBuilder(registry, store, fees, hasher, domain, clock),
      intake: new OrderIntake(registry, store, desk, fees, hasher, verifier, domain, clock, funds),
      queries: new OrderQueries(registry, store),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
