import type { AccountKeyRecord, AccountKeyType } from '../../domain/accounts/account-keys.js';
import type { AccountRegistrar } from '../../ports/account-registrar.js';
import type { Clock } from '../../ports/clock.js';
import type { DevnetFunding } from '../../ports/devnet-funding.js';
import type { AccountKeyStore, TokenStore } from '../../ports/store/ports.js';

/** What a funding gave an account. */
export interface Funding {
  readonly account: string;
  readonly address: string;
  /** Whole units of each token. */
  readonly amount: number;
  /** Whether the faucet also approved the reactor through Permit2 for the account. */
  readonly approved: boolean;
  /** The tokens funded. */
  readonly tokens: string[];
  /** Tokens the faucet associated the account with, on its behalf (anvil impersonation). */
  readonly associated: string[];
  /** Tokens not funded (associate false): the account has not associated them itself. */
  readonly unassociated: string[];
}

/**
 * The devnet's own registry of account keys as the operator works it: adding accounts, the faucet's
 * new ones, and funding them with every registry token on the devnet chain. Tokens and accounts
 * share the ledger's numbers, so no account takes a token's id.
 */
export class DevnetAccounts {
  constructor(
    private readonly keys: AccountKeyStore,
    private readonly registrar: AccountRegistrar,
    private readonly tokens: TokenStore,
    private readonly clock: Clock,
  ) {}

  list(): Promise<AccountKeyRecord[]> {
    return this.keys.list();
  }

  /** Registers the key of an account; undefined when the id is a token's (an ED25519 account would take the token's address). */
  async register(accountId: string, keyType: AccountKeyType, publicKey: Uint8Array): Promise<AccountKeyRecord | undefined> {
    if ((await this.tokens.list()).some((token) => token.id === accountId)) return undefined;
    return this.registrar.register(accountId, keyType, publicKey, this.clock.now());
  }

  /** Registers a key under the next free devnet id, past those of tokens. */
  async registerNew(keyType: AccountKeyType, publicKey: Uint8Array): Promise<AccountKeyRecord> {
    const tokenIds = new Set((await this.tokens.list()).map((token) => token.id));
    return this.registrar.registerNew(keyType, publicKey, this.clock.now(), tokenIds);
  }

  /** The EVM address of a registered account; undefined when the registry does not have it. */
  async evmAddressOf(accountId: string): Promise<string | undefined> {
    return (await this.keys.get(accountId))?.evmAddress;
  }

  /**
   * Funds an account through the devnet's faucet with `amount` whole units of each registry token
   * (of those it is associated with, or that the faucet associates it with), and, with `approve`,
   * the reactor's allowance through Permit2.
   */
  async fund(
    faucet: DevnetFunding,
    target: { readonly account: string; readonly address: string },
    amount: number,
    options: { readonly approve: boolean; readonly associate: boolean },
  ): Promise<Funding> {
    const tokens = await this.tokens.list();
    const result = await faucet.fund(
      target.address,
      tokens.map((token) => ({ token: token.evmAddress, amount: BigInt(amount) * 10n ** BigInt(token.decimals) })),
      options,
    );
    const symbols = (addresses: readonly string[]) =>
      tokens.filter((token) => addresses.includes(token.evmAddress)).map((token) => token.symbol);
    const unassociated = symbols(result.unassociated);
    return {
      ...target,
      amount,
      approved: options.approve,
      tokens: tokens.map((token) => token.symbol).filter((symbol) => !unassociated.includes(symbol)),
      associated: symbols(result.associated),
      unassociated,
    };
  }
}
