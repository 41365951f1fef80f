import {
  type Address,
  bytesToHex,
  type Eip712Domain,
  type Hex,
  isEvmAddress,
  isLedgerId,
  orderTypedData,
  type PartialFillLimitOrder,
} from '@dex/core';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { InvalidKeyError, InvalidParameterError } from '../errors.js';
import { isLedgerPrivateKey, type LedgerPrivateKey } from './ledger-key.js';
import { privateKeyBytes } from './private-key.js';
import { EIP712_MODE, orderDigest, type Signer } from './signer.js';

/** The typed data of an order, as {@link TypedDataAccount.signTypedData} receives it. */
export type OrderTypedData = ReturnType<typeof orderTypedData>;

/** An account that signs by itself, such as viem's `privateKeyToAccount(...)` or `mnemonicToAccount(...)`. */
export interface TypedDataAccount {
  readonly address: string;
  signMessage(parameters: { message: string }): Promise<Hex>;
  signTypedData(parameters: OrderTypedData): Promise<Hex>;
}

export interface Secp256k1SignerOptions {
  /**
   * The ledger account (`0.0.X`) the key belongs to, when it logs in as one; absent, the account is
   * the key's own `0x` address. Either way the orders' swapper is the key's EVM address.
   */
  readonly account?: string | undefined;
}

/** A private key (32 bytes or hex, or the ledger's DER hex), the ledger SDK's ECDSA key, or a viem-style account. */
export type Secp256k1KeySource = string | Uint8Array | LedgerPrivateKey | TypedDataAccount;

const textEncoder = new TextEncoder();

/** keccak256 of an EIP-191 personal message: what `personal_sign` and viem's `signMessage` sign. */
export function personalMessageDigest(message: string): Uint8Array {
  const bytes = textEncoder.encode(message);
  const prefix = textEncoder.encode(`\x19Ethereum Signed Message:\n${bytes.length}`);
  const data = new Uint8Array(prefix.length + bytes.length);
  data.set(prefix, 0);
  data.set(bytes, prefix.length);
  return keccak_256(data);
}

/** The EVM address of a secp256k1 public key: the last 20 bytes of keccak256 of its uncompressed point. */
function addressOf(secretKey: Uint8Array): Address {
  const point = secp256k1.getPublicKey(secretKey, false);
  return bytesToHex(keccak_256(point.subarray(1)).subarray(12)) as Address;
}

/** A low-s r,s,v signature (v 27 or 28) of a 32-byte digest. */
function signDigest(digest: Uint8Array, secretKey: Uint8Array): Hex {
  // noble's recovered format is recovery byte, r, s; Ethereum's is r, s, v.
  const recovered = secp256k1.sign(digest, secretKey, { prehash: false, lowS: true, format: 'recovered' });
  const rsv = new Uint8Array(65);
  rsv.set(recovered.subarray(1), 0);
  rsv[64] = 27 + (recovered[0] as number);
  return bytesToHex(rsv);
}

function loginAccount(options: Secp256k1SignerOptions, address: Address): string {
  if (options.account === undefined) return address;
  if (!isLedgerId(options.account)) {
    throw new InvalidParameterError('account', 'account must be a ledger id such as 0.0.1234', {
      details: `got ${options.account}`,
    });
  }
  return options.account;
}

function isTypedDataAccount(source: unknown): source is TypedDataAccount {
  const candidate = source as Partial<TypedDataAccount> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.address === 'string' &&
    typeof candidate.signMessage === 'function' &&
    typeof candidate.signTypedData === 'function'
  );
}

/**
 * A signer for a secp256k1 key: a `0x` wallet, or a ledger account with an ECDSA key (pass its
 * `0.0.X` as `account`). Logins are EIP-191 personal-sign; orders are EIP-712 typed data.
 *
 * @example
 * const signer = secp256k1Signer(process.env.PRIVATE_KEY);          // a hex key
 * const signer = secp256k1Signer(privateKeyToAccount(key));          // a viem account
 */
export function secp256k1Signer(source: Secp256k1KeySource, options: Secp256k1SignerOptions = {}): Signer {
  if (isTypedDataAccount(source)) {
    if (!isEvmAddress(source.address)) throw new InvalidKeyError('The account has no valid EVM address');
    const swapper = source.address.toLowerCase() as Address;
    return Object.freeze({
      account: loginAccount(options, swapper),
      keyType: 'secp256k1',
      swapper,
      signMessage: (message: string) => source.signMessage({ message }),
      signOrder: async (order: PartialFillLimitOrder, domain: Eip712Domain) => {
        const signature = await source.signTypedData(orderTypedData(domain, order));
        return `${EIP712_MODE}${signature.slice(2)}` as Hex;
      },
    } satisfies Signer);
  }
  let secretKey: Uint8Array;
  if (isLedgerPrivateKey(source)) {
    if (source.type.toLowerCase() !== 'secp256k1') {
      throw new InvalidKeyError(`A secp256k1 signer needs an ECDSA (secp256k1) key, got a ${source.type} key`);
    }
    secretKey = privateKeyBytes(source.toBytesRaw(), 'secp256k1');
  } else {
    secretKey = privateKeyBytes(source, 'secp256k1');
  }
  if (!secp256k1.utils.isValidSecretKey(secretKey)) throw new InvalidKeyError('The secp256k1 private key is out of range');
  const swapper = addressOf(secretKey);
  return Object.freeze({
    account: loginAccount(options, swapper),
    keyType: 'secp256k1',
    swapper,
    signMessage: async (message: string) => signDigest(personalMessageDigest(message), secretKey),
    signOrder: async (order: PartialFillLimitOrder, domain: Eip712Domain) =>
      `${EIP712_MODE}${signDigest(orderDigest(order, domain), secretKey).slice(2)}` as Hex,
  } satisfies Signer);
}
