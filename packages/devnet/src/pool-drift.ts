import { type BotLogger, Prng } from '@dex/market-maker';
import { BaseError } from 'viem';
import type { LiquidityAccount } from './liquidity-account.js';
import type { LivePool } from './pool-seeding.js';

export interface DriftOptions {
  /** Shortest and longest wait between two actions; each wait is drawn between them. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** Seed of the draws (waits, pools, directions, sizes): the same seed, the same sequence. */
  readonly seed: number;
}

/** An action every 20 to 60 seconds. */
export const DRIFT_DEFAULTS: DriftOptions = { minDelayMs: 20_000, maxDelayMs: 60_000, seed: 16 };

/** Out of 20 actions: 15 swaps, 2 deposits, 2 withdrawals and 1 reward to the SAUCE stakers. */
const SWAP_CHANCE = 0.75;
const REWARD_CHANCE_OF_REST = 0.2;
const ADD_CHANCE_OF_REST = 0.5;
/** A reward sends 0.01 % to 0.05 % of the SAUCE the staking contract holds (in per million). */
const REWARD_PER_MILLION = { min: 100, max: 500 };
/** A swap sells 0.1 % to 1 % of the pool's reserve of what it sells (about 100 to 1,000 USD on a seeded pool). */
const SWAP_PER_MILLE = { min: 1, max: 10 };
/** A deposit adds, and a withdrawal takes out, 0.1 % to 0.5 % of the pool (or of the stake). */
const LIQUIDITY_PER_MILLE = { min: 1, max: 5 };
/** A swap accepts this much less than the quote (in per mille): only the reactor's pool fills move a pool meanwhile. */
const SLIPPAGE_PER_MILLE = 10n;

export interface DriftStats {
  swaps: number;
  deposits: number;
  withdrawals: number;
  rewards: number;
  failures: number;
}

/**
 * Moves the devnet's pools away from the books now and then, as traders and liquidity providers
 * would: at seeded random intervals the liquidity account swaps a modest random amount on a random
 * pool (either way), or now and then adds or takes out a little liquidity (staked in the farm). A
 * failure is logged and the next action comes as planned; it never throws.
 */
export class PoolDrift {
  readonly stats: DriftStats = { swaps: 0, deposits: 0, withdrawals: 0, rewards: 0, failures: 0 };
  private readonly prng: Prng;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly account: LiquidityAccount,
    private readonly pools: readonly LivePool[],
    /** Brings the account's stock back up when it runs low. */
    private readonly topUp: () => Promise<void>,
    private readonly logger: BotLogger,
    private readonly options: DriftOptions = DRIFT_DEFAULTS,
  ) {
    this.prng = new Prng(options.seed);
  }

  start(): void {
    this.schedule();
  }

  /** Stops the timer and waits for an action under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One action on a random pool; logs and counts a failure instead of throwing it. */
  async step(): Promise<void> {
    const pool = this.pools[this.prng.int(0, this.pools.length - 1)];
    if (pool === undefined) return;
    const kind = this.prng.chance(SWAP_CHANCE)
      ? 'swap'
      : this.prng.chance(REWARD_CHANCE_OF_REST)
        ? 'reward'
        : this.prng.chance(ADD_CHANCE_OF_REST)
          ? 'deposit'
          : 'withdrawal';
    try {
      if (kind === 'swap') await this.swap(pool);
      else if (kind === 'reward') await this.reward();
      else if (kind === 'deposit') await this.deposit(pool);
      else await this.withdraw(pool);
    } catch (error) {
      this.stats.failures++;
      // viem's own summary: its full message repeats the request.
      const message = error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
      this.logger.warn({ pool: pool.pair, action: kind, error: message }, 'pool drift failed');
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.running = this.step().finally(() => {
          this.running = undefined;
          this.schedule();
        });
      },
      this.prng.int(this.options.minDelayMs, this.options.maxDelayMs),
    );
    this.timer.unref();
  }

  private async swap(pool: LivePool): Promise<void> {
    const [tokenIn, tokenOut] = this.prng.chance(0.5) ? [pool.base, pool.quote] : [pool.quote, pool.base];
    const [reserveIn] = await this.account.reserves(pool.pair, tokenIn);
    const amountIn = (reserveIn * BigInt(this.prng.int(SWAP_PER_MILLE.min, SWAP_PER_MILLE.max))) / 1000n;
    if (amountIn === 0n) return;
    if ((await this.account.balanceOf(tokenIn)) < amountIn) await this.topUp();
    const quoted = await this.account.quote(tokenIn, tokenOut, amountIn);
    await this.account.swap(tokenIn, tokenOut, amountIn, (quoted * (1000n - SLIPPAGE_PER_MILLE)) / 1000n);
    this.stats.swaps++;
    this.logger.debug({ pool: pool.pair, tokenIn, amountIn: amountIn.toString(), quoted: quoted.toString() }, 'pool drift swap');
  }

  /** SAUCE to the staking contract, as the protocol's buy-backs would send it: the xSAUCE ratio rises. */
  private async reward(): Promise<void> {
    const sauce = await this.account.sauce();
    const held = await this.account.stakedSauceTotal();
    const amount = (held * BigInt(this.prng.int(REWARD_PER_MILLION.min, REWARD_PER_MILLION.max))) / 1_000_000n;
    if (amount === 0n) return;
    if ((await this.account.balanceOf(sauce)) < amount) await this.topUp();
    await this.account.rewardStakers(amount);
    this.stats.rewards++;
    this.logger.debug({ amount: amount.toString() }, 'pool drift reward to SAUCE stakers');
  }

  private async deposit(pool: LivePool): Promise<void> {
    const perMille = BigInt(this.prng.int(LIQUIDITY_PER_MILLE.min, LIQUIDITY_PER_MILLE.max));
    const [reserveBase, reserveQuote] = await this.account.reserves(pool.pair, pool.base);
    // One more quote unit than the ratio asks, so the router takes all of the base amount.
    const [amountBase, amountQuote] = [(reserveBase * perMille) / 1000n, (reserveQuote * perMille) / 1000n + 1n];
    const [heldBase, heldQuote] = await Promise.all([this.account.balanceOf(pool.base), this.account.balanceOf(pool.quote)]);
    if (heldBase < amountBase || heldQuote < amountQuote) await this.topUp();
    await this.account.addLiquidity(pool.base, pool.quote, amountBase, amountQuote);
    await this.account.deposit(pool.pid, await this.account.balanceOf(pool.pair));
    this.stats.deposits++;
    this.logger.debug({ pool: pool.pair, perMille: perMille.toString() }, 'pool drift deposit');
  }

  private async withdraw(pool: LivePool): Promise<void> {
    const perMille = BigInt(this.prng.int(LIQUIDITY_PER_MILLE.min, LIQUIDITY_PER_MILLE.max));
    const amount = ((await this.account.staked(pool.pid)) * perMille) / 1000n;
    if (amount === 0n) return;
    await this.account.withdraw(pool.pid, amount);
    await this.account.removeLiquidity(pool.base, pool.quote, amount);
    this.stats.withdrawals++;
    this.logger.debug({ pool: pool.pair, perMille: perMille.toString() }, 'pool drift withdrawal');
  }
}
