import type { FeeOverride } from '../../domain/markets/market-records.js';
import type { Clock } from '../../ports/clock.js';
import type { FeeRates } from '../../ports/fee-rates.js';
import type { FeeOverrideStore } from '../../ports/store/order-ports.js';
import type { AccountDirectory } from '../auth/trading-identity.js';

/**
 * The operator's fee overrides: one account's rates on one book, replacing the book's own (what
 * FeeSchedule reads). They are kept under the name the account trades under.
 */
export class FeeOverrides {
  constructor(
    private readonly overrides: FeeOverrideStore,
    private readonly directory: AccountDirectory,
    private readonly clock: Clock,
  ) {}

  /** The name an account trades under (AccountDirectory.canonical): a secp256k1 ledger account's is its EVM address. */
  tradingName(account: string): Promise<string> {
    return this.directory.canonical(account);
  }

  /** Sets the rates of `account` (a trading name) on a book; answers the override as kept. */
  async set(target: { readonly account: string; readonly bookId: number }, rates: FeeRates): Promise<FeeOverride> {
    const fee: FeeOverride = { ...target, ...rates, updatedAt: this.clock.now() };
    await this.overrides.set(fee);
    return fee;
  }

  /** False when there was no such override. */
  clear(account: string, bookId: number): Promise<boolean> {
    return this.overrides.clear(account, bookId);
  }

  list(): Promise<FeeOverride[]> {
    return this.overrides.list();
  }
}
