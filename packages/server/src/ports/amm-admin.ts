/** A constant-product pool of the AMM, as the chain has it now. Addresses are 0x hex. */
export interface AmmPool {
  /** The exchange's id of the pool, as the data API shows it: from 1 (poolIdOfPairIndex). */
  readonly id: number;
  /** The pair contract, which is also its LP token (8 decimals). */
  readonly pair: string;
  /** The pair's tokens in its own order (the lower address first). */
  readonly token0: string;
  readonly token1: string;
  readonly reserve0: bigint;
  readonly reserve1: bigint;
  /** LP units in existence. */
  readonly lpSupply: bigint;
}

/** One pool of the farm. */
export interface FarmPool {
  /** Its index in the farm (from 0): the farm's id, as the data API shows it. */
  readonly pid: number;
  readonly lpToken: string;
  readonly allocPoint: bigint;
  /** LP units staked in it. */
  readonly totalStaked: bigint;
}

/** The farm's rates, shared between its pools by allocation points, and what it holds to pay. */
export interface FarmState {
  /** The reward token the farm mints (SAUCE). */
  readonly sauce: string;
  /** SAUCE raw units per second. */
  readonly saucePerSecond: bigint;
  /** Native coin per second in wei, the EVM's unit (10^10 to the tinybar). */
  readonly nativePerSecond: bigint;
  readonly totalAllocPoint: bigint;
  /** The farm's native balance in wei: what its native rewards are paid from. */
  readonly nativeBalance: bigint;
  readonly pools: readonly FarmPool[];
}

export interface LiquidityRequest {
  readonly tokenA: string;
  readonly tokenB: string;
  /** Raw units wanted in; the pool's ratio may take less of one of them. */
  readonly amountA: bigint;
  readonly amountB: bigint;
  /**
   * Whose tokens go in, and who gets the LP tokens: null for the sender (the devnet's issuer mints
   * the amounts for the purpose; a key's wallet gives its own), or another account, which only the
   * devnet's issuer can act for (its own balances, through impersonation).
   */
  readonly from: string | null;
}

export interface LiquidityAdded {
  readonly pool: AmmPool;
  readonly provider: string;
  readonly amountA: bigint;
  readonly amountB: bigint;
  readonly liquidity: bigint;
}

/**
 * Who sends the administrator's transactions: the devnet's issuer (through impersonation, which
 * also lets it act for any account), or the wallet of a key, the AMM's owner's on a chain the
 * service did not start; `address` null: no key was given, so reads only.
 */
export type AmmSenderKind = { readonly kind: 'devnet-issuer' } | { readonly kind: 'key'; readonly address: string | null };

/**
 * The AMM as its administrator works it: pools through the factory and router, the farm as its
 * owner (checked before anything is sent). Refusals of the chain throw AmmRefusal.
 */
export interface AmmAdmin {
  /** The farm and SAUCE staking are null on a chain deployed without SAUCE. */
  readonly addresses: {
    readonly factory: string;
    readonly router: string;
    readonly farm: string | null;
    readonly staking: string | null;
  };
  readonly sender: AmmSenderKind;
  /** Creates the pair of two tokens (empty until liquidity is added). */
  createPool(tokenA: string, tokenB: string): Promise<AmmPool>;
  addLiquidity(request: LiquidityRequest): Promise<LiquidityAdded>;
  pools(): Promise<AmmPool[]>;
  /** Adds a farm pool for an LP token (the pair's address). */
  addFarm(lpToken: string, allocPoint: bigint): Promise<FarmPool>;
  setFarm(pid: number, allocPoint: bigint): Promise<FarmPool>;
  /** SAUCE raw units and native wei a second. */
  setEmissions(saucePerSecond: bigint, nativePerSecond: bigint): Promise<void>;
  /** Sends native coin (wei) to the farm, out of which it pays native rewards. */
  fundFarm(amount: bigint): Promise<void>;
  farm(): Promise<FarmState>;
}

/** The chain refused an AMM transaction (the message names the contract's error and its arguments), or it cannot be sent as asked. */
export class AmmRefusal extends Error {
  override readonly name = 'AmmRefusal';
}
