/**
 * Constant-product liquidity pools and liquidity-mining farms as the exchange records them. The
 * AMM indexer writes them from the chain (amm-ports.ts); the data API reads them.
 */

export interface PoolRecord {
  /** The factory's 0-based index of the pair plus one. */
  readonly id: number;
  /** Ledger id of the pool contract, or its lower-case address when it has none (contract-ids.ts). */
  readonly contractId: string;
  /** The LP token: the pair itself, so its id is the contract's. Not a token of the registry. */
  readonly lpTokenId: string;
  readonly lpTokenName: string;
  readonly lpTokenSymbol: string;
  readonly lpTokenDecimals: number;
  /**
   * The pair's token0 and token1, named as the registry names a token at that address: its ledger
   * id when the address is long-zero, else the address (the data API maps it to the listed token).
   */
  readonly tokenAId: string;
  readonly tokenBId: string;
  /** Raw LP token units in existence. */
  readonly lpTokenReserve: bigint;
  readonly tokenReserveA: bigint;
  readonly tokenReserveB: bigint;
  readonly updatedAt: number;
}

export interface FarmRecord {
  /** The farm contract's pool index. */
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
  /** The staker: a lower-case address when recorded from the chain. */
  readonly accountId: string;
  /** Raw LP token units. */
  readonly staked: bigint;
  readonly updatedAt: number;
}

export interface PoolStore {
  list(): Promise<PoolRecord[]>;
  get(id: number): Promise<PoolRecord | undefined>;
  /**
   * Inserts or replaces a pool by id, by hand (tests, tools: the indexer writes through AmmStore);
   * throws StoreConflictError on tokens the registry does not list or a taken contract.
   */
  save(pool: PoolRecord): Promise<void>;
}

export interface FarmStore {
  /** The farms of the exchange's pools (a farm of another LP token is not listed). */
  list(): Promise<FarmRecord[]>;
  /** Inserts or replaces a farm by id, by hand; throws StoreConflictError on an unknown pool. */
  save(farm: FarmRecord): Promise<void>;
  /** The stakes recorded under any of these names of one account, by farm id. */
  stakesOf(accountIds: readonly string[]): Promise<FarmStake[]>;
  /** Inserts or replaces one account's stake in a farm. */
  saveStake(stake: FarmStake): Promise<void>;
}
