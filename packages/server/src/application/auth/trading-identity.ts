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

  /** The identity of an account, or undefined when the ledger has no usable key for it. */
  async identify(account: string): Promise<TradingIdentity | undefined> {
    if (!isLedgerId(account)) {
      const address = account as Address;
      return { account, swapper: address, signer: { type: 'secp256k1-address', address } };
    }
    let key: Awaited<ReturnType<AccountKeyRegistry['lookup']>>;
    try {
      key = await this.keys.lookup(account);
    } catch (error) {
      if (error instanceof AccountKeyLookupError) throw new AppError('ACCOUNT_LOOKUP_FAILED', undefined, { cause: error });
      throw error;
    }
    if (key === undefined) return undefined;
    const signer: SignerKey =
      key.keyType === 'ED25519'
        ? { type: 'ed25519', publicKey: key.publicKey }
        : { type: 'secp256k1-address', address: key.evmAddress };
    return { account, swapper: key.evmAddress, signer };
  }

  /** The identity of an authenticated account; one whose key vanished since login cannot trade. */
  async require(account: string): Promise<TradingIdentity> {
    const identity = await this.identify(account);
    if (identity === undefined) throw new AppError('UNKNOWN_ACCOUNT');
    return identity;
  }
}
