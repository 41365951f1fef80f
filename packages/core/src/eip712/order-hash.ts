import { keccak_256 } from '@noble/hashes/sha3.js';
import { MAX_UINT256 } from '../amount.js';
import { CoreError } from '../errors.js';
import { bytesToHex, decodeHexInto } from './hex.js';
import { MAX_VALIDATION_DATA_BYTES } from './order-codec.js';
import type { Eip712Domain, Hex, PartialFillLimitOrder } from './order-types.js';

export type Keccak256 = (data: Uint8Array) => Uint8Array;

const ORDER_INFO_TYPE =
  'OrderInfo(address reactor,address swapper,uint256 nonce,uint256 deadline,address additionalValidationContract,bytes additionalValidationData)';
const INPUT_TOKEN_TYPE = 'PartialFillInputToken(address token,uint256 amount)';
const OUTPUT_TOKEN_TYPE = 'OutputToken(address token,uint256 amount,address recipient)';
const DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';

/** EIP-712 encodeType of the order: the primary type, then the referenced types in alphabetical order. */
export const ORDER_TYPE_STRING = `PartialFillLimitOrder(OrderInfo info,PartialFillInputToken input,OutputToken output,bool makerOnly,bool takerOnce,uint32 maxTakerFeePips,uint32 maxMakerFeePips)${ORDER_INFO_TYPE}${OUTPUT_TOKEN_TYPE}${INPUT_TOKEN_TYPE}`;

const utf8 = new TextEncoder();
const typeHash = (type: string): Uint8Array => keccak_256(utf8.encode(type));

const ORDER_TYPE_HASH_BYTES = typeHash(ORDER_TYPE_STRING);
const ORDER_INFO_TYPE_HASH = typeHash(ORDER_INFO_TYPE);
const INPUT_TOKEN_TYPE_HASH = typeHash(INPUT_TOKEN_TYPE);
const OUTPUT_TOKEN_TYPE_HASH = typeHash(OUTPUT_TOKEN_TYPE);
const DOMAIN_TYPE_HASH = typeHash(DOMAIN_TYPE);

export const ORDER_TYPE_HASH: Hex = bytesToHex(ORDER_TYPE_HASH_BYTES);

const WORD = 32;
const ADDRESS_BYTES = 20;
const MASK_64 = 0xffff_ffff_ffff_ffffn;

/** Writes an address right-aligned into its (already zeroed) 32-byte word. */
function writeAddress(target: Uint8Array, word: number, address: string, field: string): void {
  const valid = address.length === 2 + 2 * ADDRESS_BYTES && decodeHexInto(address, 2, ADDRESS_BYTES, target, word * WORD + 12);
  if (!valid) throw new CoreError('INVALID_ORDER', `${field} must be a 0x-prefixed 20-byte hex address`);
}

/** Writes a uint256 big-endian into its word, 64 bits at a time, without a hex detour. */
function writeUint256(view: DataView, word: number, value: bigint, field: string): void {
  if (value < 0n || value > MAX_UINT256) throw new CoreError('INVALID_ORDER', `${field} is outside the uint256 range`);
  let rest = value;
  for (let offset = word * WORD + 24; offset >= word * WORD; offset -= 8) {
    view.setBigUint64(offset, rest & MASK_64);
    rest >>= 64n;
  }
}

/** Writes a uint32 into the last 4 bytes of its word; the 28 bytes before it stay zero. */
function writeUint32(view: DataView, word: number, value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new CoreError('INVALID_ORDER', `${field} must be an integer from 0 to 4294967295`);
  }
  view.setUint32(word * WORD + 28, value);
}

/** Encoding buffer of one struct with its type hash in word 0, plus a view for the number writes. */
function structBuffer(words: number, typeHashBytes: Uint8Array): { bytes: Uint8Array; view: DataView } {
  const bytes = new Uint8Array(words * WORD);
  bytes.set(typeHashBytes, 0);
  return { bytes, view: new DataView(bytes.buffer) };
}

/** hashStruct of the EIP-712 domain (name, version, chainId, verifyingContract). */
export function hashDomain(domain: Eip712Domain, keccak256: Keccak256 = keccak_256): Uint8Array {
  if (!Number.isSafeInteger(domain.chainId) || domain.chainId < 0) {
    throw new CoreError('OUT_OF_RANGE', 'domain.chainId must be a non-negative safe integer');
  }
  const { bytes, view } = structBuffer(5, DOMAIN_TYPE_HASH);
  bytes.set(keccak256(utf8.encode(domain.name)), WORD);
  bytes.set(keccak256(utf8.encode(domain.version)), 2 * WORD);
  writeUint256(view, 3, BigInt(domain.chainId), 'domain.chainId');
  writeAddress(bytes, 4, domain.verifyingContract, 'domain.verifyingContract');
  return keccak256(bytes);
}

/**
 * EIP-712 hashing of orders for one domain. Type hashes and the domain separator are computed
 * once; every struct is encoded into its own preallocated buffer, so hashing an order allocates
 * little more than the keccak outputs. One instance is not re-entrant across threads (it is
 * synchronous, so sharing it within one thread is fine).
 */
export class OrderHasher {
  readonly domainSeparator: Uint8Array;
  private readonly keccak256: Keccak256;
  private readonly info = structBuffer(7, ORDER_INFO_TYPE_HASH);
  private readonly input = structBuffer(3, INPUT_TOKEN_TYPE_HASH);
  private readonly output = structBuffer(4, OUTPUT_TOKEN_TYPE_HASH);
  private readonly order = structBuffer(8, ORDER_TYPE_HASH_BYTES);
  private readonly validationData = new Uint8Array(MAX_VALIDATION_DATA_BYTES);
  /** 0x1901 ‖ domainSeparator ‖ structHash; only the last 32 bytes change per order. */
  private readonly signingInput = new Uint8Array(2 + 2 * WORD);
  private readonly emptyDataHash: Uint8Array;

  constructor(domain: Eip712Domain, keccak256: Keccak256 = keccak_256) {
    this.keccak256 = keccak256;
    this.emptyDataHash = keccak256(new Uint8Array(0));
    const separator = hashDomain(domain, keccak256);
    this.domainSeparator = separator.slice();
    this.signingInput.set([0x19, 0x01], 0);
    this.signingInput.set(separator, 2);
  }

  /** hashStruct(order) of the primary type `PartialFillLimitOrder`. */
  structHash(order: PartialFillLimitOrder): Uint8Array {
    const { bytes, view } = this.order;
    bytes.set(this.hashInfo(order), WORD);
    bytes.set(this.hashInput(order), 2 * WORD);
    bytes.set(this.hashOutput(order), 3 * WORD);
    bytes[5 * WORD - 1] = order.makerOnly ? 1 : 0;
    bytes[6 * WORD - 1] = order.takerOnce ? 1 : 0;
    writeUint32(view, 6, order.maxTakerFeePips, 'order.maxTakerFeePips');
    writeUint32(view, 7, order.maxMakerFeePips, 'order.maxMakerFeePips');
    return this.keccak256(bytes);
  }

  /** The digest a wallet signs: keccak256(0x1901 ‖ domainSeparator ‖ structHash(order)). */
  digest(order: PartialFillLimitOrder): Uint8Array {
    this.signingInput.set(this.structHash(order), 2 + WORD);
    return this.keccak256(this.signingInput);
  }

  private hashInfo({ info }: PartialFillLimitOrder): Uint8Array {
    const { bytes, view } = this.info;
    writeAddress(bytes, 1, info.reactor, 'order.info.reactor');
    writeAddress(bytes, 2, info.swapper, 'order.info.swapper');
    writeUint256(view, 3, info.nonce, 'order.info.nonce');
    writeUint256(view, 4, info.deadline, 'order.info.deadline');
    writeAddress(bytes, 5, info.additionalValidationContract, 'order.info.additionalValidationContract');
    bytes.set(this.hashValidationData(info.additionalValidationData), 6 * WORD);
    return this.keccak256(bytes);
  }

  private hashValidationData(data: string): Uint8Array {
    // Nearly every order carries no validation data; its hash is a constant.
    if (data === '0x') return this.emptyDataHash;
    const length = (data.length - 2) / 2;
    const valid =
      data.startsWith('0x') &&
      Number.isInteger(length) &&
      length <= MAX_VALIDATION_DATA_BYTES &&
      decodeHexInto(data, 2, length, this.validationData, 0);
    if (!valid) {
      throw new CoreError('INVALID_ORDER', 'order.info.additionalValidationData must be 0x-prefixed hex of at most 1024 bytes');
    }
    return this.keccak256(this.validationData.subarray(0, length));
  }

  private hashInput({ input }: PartialFillLimitOrder): Uint8Array {
    const { bytes, view } = this.input;
    writeAddress(bytes, 1, input.token, 'order.input.token');
    writeUint256(view, 2, input.amount, 'order.input.amount');
    return this.keccak256(bytes);
  }

  private hashOutput({ output }: PartialFillLimitOrder): Uint8Array {
    const { bytes, view } = this.output;
    writeAddress(bytes, 1, output.token, 'order.output.token');
    writeUint256(view, 2, output.amount, 'order.output.amount');
    writeAddress(bytes, 3, output.recipient, 'order.output.recipient');
    return this.keccak256(bytes);
  }
}
