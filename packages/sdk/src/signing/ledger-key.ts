/**
 * The part of the ledger SDK's `PrivateKey` (`@hashgraph/sdk`, `@hiero-ledger/sdk`) the signers
 * use, described by shape so the SDK does not depend on that package.
 */
export interface LedgerPrivateKey {
  /** `"ED25519"` or `"secp256k1"`. */
  readonly type: string;
  /** Ed25519: the 64-byte signature of `message` itself. */
  sign(message: Uint8Array): Uint8Array;
  /** The 32 raw bytes of the private key. */
  toBytesRaw(): Uint8Array;
}

export function isLedgerPrivateKey(source: unknown): source is LedgerPrivateKey {
  const candidate = source as Partial<LedgerPrivateKey> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    !(candidate instanceof Uint8Array) &&
    typeof candidate.type === 'string' &&
    typeof candidate.sign === 'function' &&
    typeof candidate.toBytesRaw === 'function'
  );
}
