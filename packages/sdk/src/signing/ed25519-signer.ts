import {
  type Address,
  bytesToHex,
  type Eip712Domain,
  type Hex,
  isLedgerId,
  longZeroAddress,
  type PartialFillLimitOrder,
} from '@dex/core';
import { ed25519 } from '@noble/curves/ed25519.js';
import { InvalidKeyError, InvalidParameterError } from '../errors.js';
import { isLedgerPrivateKey, type LedgerPrivateKey } from './ledger-key.js';
import { privateKeyBytes } from './private-key.js';
import { EIP712_MODE, orderDigest, type Signer } from './signer.js';

export interface Ed25519SignerOptions {
  /** The ledger account (`0.0.X`) whose key this is. */
  readonly account: string;
}

/** A 32-byte private key (bytes, hex or the ledger's DER hex), or the ledger SDK's Ed25519 `PrivateKey`. */
export type Ed25519KeySource = string | Uint8Array | LedgerPrivateKey;

const textEncoder = new TextEncoder();

/**
 * A signer for a ledger account with an Ed25519 key. Logins sign the challenge's UTF-8 bytes;
 * orders sign the 32-byte EIP-712 digest, which the SDK computes itself. The swapper of its orders
 * is the account's long-zero EVM address.
 *
 * @example
 * const signer = ed25519Signer(readFileSync('alice.key', 'utf8'), { account: '0.0.5001' });
 * const signer = ed25519Signer(PrivateKey.fromStringDer(der), { account: '0.0.5001' }); // @hashgraph/sdk
 */
export function ed25519Signer(source: Ed25519KeySource, options: Ed25519SignerOptions): Signer {
  if (!isLedgerId(options?.account)) {
    throw new InvalidParameterError('account', 'An Ed25519 signer needs its ledger account id, such as 0.0.1234', {
      details: `got ${String(options?.account)}`,
    });
  }
  let sign: (message: Uint8Array) => Uint8Array;
  if (isLedgerPrivateKey(source)) {
    if (source.type.toUpperCase() !== 'ED25519') {
      throw new InvalidKeyError(`An Ed25519 signer needs an ED25519 key, got a ${source.type} key`);
    }
    sign = (message) => source.sign(message);
  } else {
    const secretKey = privateKeyBytes(source, 'ed25519');
    sign = (message) => ed25519.sign(message, secretKey);
  }
  const signed = (message: Uint8Array): Hex => {
    const signature = sign(message);
    if (!(signature instanceof Uint8Array) || signature.length !== 64) {
      throw new InvalidKeyError('The Ed25519 key did not produce a 64-byte signature');
    }
    return bytesToHex(signature);
  };
  return Object.freeze({
    account: options.account,
    keyType: 'ed25519',
    swapper: longZeroAddress(options.account) as Address,
    signMessage: async (message: string) => signed(textEncoder.encode(message)),
    signOrder: async (order: PartialFillLimitOrder, domain: Eip712Domain) =>
      `${EIP712_MODE}${signed(orderDigest(order, domain)).slice(2)}` as Hex,
  } satisfies Signer);
}
