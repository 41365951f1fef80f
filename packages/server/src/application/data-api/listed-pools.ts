import { listedPool } from '../../domain/data-api/pool-tokens.js';
import type { TokenRecord } from '../../domain/markets/market-records.js';
import type { PoolRecord, PoolStore } from '../../ports/store/pool-ports.js';

/** The store's pools with their tokens named as the registry names them (pool-tokens.ts). */
export class ListedPools {
  constructor(
    private readonly store: PoolStore,
    private readonly tokens: () => readonly TokenRecord[],
  ) {}

  async all(): Promise<PoolRecord[]> {
    const ids = new Map(this.tokens().map((token) => [token.evmAddress.toLowerCase(), token.id]));
    return (await this.store.list()).map((pool) => listedPool(pool, ids));
  }

  async get(id: number): Promise<PoolRecord | undefined> {
    return (await this.all()).find((pool) => pool.id === id);
  }
}
