import type { ReferencePrices } from '@dex/market-maker';
import { type DevnetFunding, type DevnetHost, devnetAmm, type ServiceLogger } from '@dex/server';
import { LiquidityAccount } from './liquidity-account.js';
import { DRIFT_DEFAULTS, type DriftOptions, PoolDrift } from './pool-drift.js';
import { seededPools } from './pool-plan.js';
import { seedPools, topUpLiquidity } from './pool-seeding.js';

export interface PoolLiquidity {
  /** Resolves once the pools are seeded and the drift runs, or with undefined (nothing to do, or a failure, logged). */
  readonly started: Promise<PoolDrift | undefined>;
  /** Stops the drift, after the seeding if it is still under way. */
  stop(): Promise<void>;
}

/**
 * The live devnet's pools: on the embedded chain with its AMM, the liquidity account seeds a pool
 * for each book's pair at the reference prices and stakes its LP tokens in the farm (see
 * seedPools), then drifts them (see PoolDrift). Without that chain it does nothing; a failure is
 * logged, never thrown.
 */
export function startPoolLiquidity(
  services: DevnetHost,
  issuer: DevnetFunding | null,
  prices: ReferencePrices,
  logger: ServiceLogger,
  drift: DriftOptions = DRIFT_DEFAULTS,
): PoolLiquidity {
  let stopped = false;
  const started = (async () => {
    const { chain } = services;
    const admin = devnetAmm(services);
    if (!chain?.devnet || !chain.amm || admin === null || issuer === null) return undefined;
    const account = await LiquidityAccount.open(services, chain.devnet, chain.amm);
    const plan = seededPools(await services.store.books.list(), await services.store.tokens.list(), prices);
    const seeded = await seedPools(account, admin, issuer, plan);
    logger.info(
      {
        account: account.record.accountId,
        pools: seeded.pools.map((pool) => pool.pair),
        created: seeded.created,
        farmed: seeded.farmed,
      },
      seeded.created > 0 ? 'seeded the devnet pools and farms' : 'the devnet pools are seeded already',
    );
    if (stopped) return undefined;
    const drifting = new PoolDrift(account, seeded.pools, () => topUpLiquidity(account, issuer, plan), logger, drift);
    drifting.start();
    return drifting;
  })().catch((error: unknown) => {
    logger.error({ err: error }, 'seeding the devnet pools failed; they do not drift');
    return undefined;
  });
  return {
    started,
    stop: async () => {
      stopped = true;
      await (await started)?.stop();
    },
  };
}
