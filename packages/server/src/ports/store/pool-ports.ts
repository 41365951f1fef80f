/**
 * Constant-product liquidity pools and liquidity-mining farms as the exchange records them. The
 * data API reads them; the AMM issue writes them from the chain.
 */

export interface PoolRecord {
  readonly id: number;
  /** Ledger id of the pool contract. */
  readonly contractId: string;
  readonly lpTokenId: string;
  readonly tokenAId: string;
  readonly tokenBId: string;
  /** Raw LP token units in existence. */
  readonly lpTokenReserve: bigint;
  readonly tokenReserveA: bigint;
  readonly tokenReserveB: bigint;
  readonly updatedAt: number;
}

export interface FarmRecord {
  readonly id: number;
  readonly poolId: number;
  /** Protocol-token emissions per second, raw units. */
  readonly sauceEmissions: bigint;
  /** Native-coin emissions per second, tinybar. */
  readonly hbarEmissions: bigint;
  /** Raw LP token units staked. */
  readonly totalStaked: bigint;
  readonly updatedAt: number;
}

export interface FarmStake {
  readonly farmId: number;
  readonly accountId: string;
  /** Raw LP token units. */
  readonly staked: bigint;
  readonly updatedAt: number;
}

export interface PoolStore {
  list(): Promise<PoolRecord[]>;
  get(id: number): Promise<PoolRecord | undefined>;
  /** Inserts or replaces a pool by id; throws StoreConflictError on unknown tokens or a taken contract. */
  save(pool: PoolRecord): Promise<void>;
}

export interface FarmStore {
  list(): Promise<FarmRecord[]>;
  /** Inserts or replaces a farm by id; throws StoreConflictError on an unknown pool. */
  save(farm: FarmRecord): Promise<void>;
  /** The account's stakes, by farm id. */
  stakesOf(accountId: string): Promise<FarmStake[]>;
  /** Inserts or replaces one account's stake in a farm. */
  saveStake(stake: FarmStake): Promise<void>;
}
