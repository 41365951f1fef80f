import { type Address, type Eip712Domain, type Hex, OrderHasher, type PartialFillLimitOrder } from '@dex/core';

/** The two key types the exchange accepts. */
export type KeyType = 'secp256k1' | 'ed25519';

/**
 * Who trades, and the key that proves it. A signer signs on the client side only; its private key
 * never leaves it and is never a property of it (logging a signer shows no key).
 */
export interface Signer {
  /** The account that logs in: a lower-case `0x` address, or a ledger id `0.0.X`. */
  readonly account: string;
  readonly keyType: KeyType;
  /** The lower-case EVM address the account's orders name as swapper. */
  readonly swapper: Address;
  /**
   * Signs a login challenge: EIP-191 personal-sign for secp256k1 keys, the message's UTF-8 bytes
   * for Ed25519 keys. Returns 0x-hex of 65 or 64 bytes.
   */
  signMessage(message: string): Promise<Hex>;
  /**
   * Signs an order in the wire format of `POST /orders/save`: mode byte `0x00`, then the 65-byte
   * r,s,v of the EIP-712 typed data (secp256k1) or the 64-byte Ed25519 signature of its digest.
   */
  signOrder(order: PartialFillLimitOrder, domain: Eip712Domain): Promise<Hex>;
}

/** Mode byte of EIP-712 order signatures. */
export const EIP712_MODE = '0x00';

let cached: { key: string; hasher: OrderHasher } | undefined;

/** The EIP-712 digest of an order, computed here from the domain: never taken from the server. */
export function orderDigest(order: PartialFillLimitOrder, domain: Eip712Domain): Uint8Array {
  const key = `${domain.name}\u0000${domain.version}\u0000${domain.chainId}\u0000${domain.verifyingContract.toLowerCase()}`;
  // A client signs for one domain; the hasher precomputes its separator once.
  if (cached?.key !== key) cached = { key, hasher: new OrderHasher(domain) };
  return cached.hasher.digest(order);
}
