import { type Address, isEvmAddress, isLedgerId } from '@dex/core';
import { AppError } from '../../domain/errors.js';
import type { SignerKey } from '../../domain/signatures/order-signatures.js';
import type { AccountKeyRegistry } from '../../ports/account-keys.js';
import { AccountKeyLookupError } from '../../ports/account-keys.js';

/** Who an account is when it trades: the address its orders name as swapper, and the key that signs them. */
export interface TradingIdentity {
  /** `0.0.X`, or a lower-case 0x address. */
  readonly account: string;
  readonly swapper: Address;
  readonly signer: SignerKey;
}

/** An account id as the API accepts it (`0.0.X` or `0x` + 40 hex), normalised; undefined otherwise. */
export function normaliseAccountId(value: string): string | undefined {
  if (isLedgerId(value)) return value;
  return isEvmAddress(value) ? value.toLowerCase() : undefined;
}

/**
 * Resolves accounts to trading identities. A 0x account is its own secp256k1 address. A `0.0.X`
 * account's key comes from the account-key registry (the devnet's own, or the mirror node): an
 * ED25519 key signs with Ed25519, an ECDSA key as its EVM alias address.
 */
export class AccountDirectory {
  constructor(private readonly keys: AccountKeyRegistry) {}

  /**
   * The identity of an account, or undefined when the ledger has no usable key for it. An account
   * with a secp256k1 key trades under the EVM address its orders name as swapper: the same name as
   * a login with the address itself, so one key is one account whichever name logged in, and its
   * funds, nonce floor, order cap and streams are checked once. An Ed25519 account keeps its
   * `0.0.X` (its long-zero swapper cannot log in as a 0x address: no key signs for it).
   */
  async identify(account: string): Promise<TradingIdentity | undefined> {
    if (!isLedgerId(account)) {
      const address = account as Address;
      return { account, swapper: address, signer: { type: 'secp256k1-address', address } };
    }
    const key = await this.asked(() => this.keys.lookup(account));
    if (key === undefined) return undefined;
    if (key.keyType === 'ED25519')
      return { account, swapper: key.evmAddress, signer: { type: 'ed25519', publicKey: key.publicKey } };
    const address = key.evmAddress;
    return { account: address, swapper: address, signer: { type: 'secp256k1-address', address } };
  }

  /** The name an account trades under (see identify): a ledger account with a secp256k1 key is its EVM address. */
  async canonical(account: string): Promise<string> {
    if (!isLedgerId(account)) return account;
    return (await this.identify(account))?.account ?? account;
  }

  /** A registry lookup; a registry that cannot answer is a 503, never a guess. */
  private async asked<T>(lookup: () => Promise<T>): Promise<T> {
    try {
      return await lookup();
    } catch (error) {
      if (error instanceof AccountKeyLookupError) throw new AppError('ACCOUNT_LOOKUP_FAILED', undefined, { cause: error });
      throw error;
    }
  }

  /** The identity of an authenticated account; one whose key vanished since login cannot trade. */
  async require(account: string): Promise<TradingIdentity> {
    const identity = await this.identify(account);
    if (identity === undefined) throw new AppError('UNKNOWN_ACCOUNT');
    return identity;
  }
}
