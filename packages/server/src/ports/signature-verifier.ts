import type { SignatureCheck } from '../domain/signatures/order-signatures.js';

/** Verifies order signatures in batches; the crypto adapter spreads a batch over worker threads. */
export interface SignatureVerifier {
  /** Answers in the order of `checks`: true when the signature is valid for its signer. */
  verifyBatch(checks: readonly SignatureCheck[]): Promise<boolean[]>;
}
