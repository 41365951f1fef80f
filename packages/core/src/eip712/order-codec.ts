import { parseRawAmount } from '../amount.js';
import { CoreError } from '../errors.js';
import { isEvmAddress } from '../evm-address.js';
import { hexToBytes } from './hex.js';
import type { Address, Hex, PartialFillLimitOrder, WireOrder } from './order-types.js';

/** The reactor hashes this field in full, so its size bounds the work one order can cause. */
export const MAX_VALIDATION_DATA_BYTES = 1024;
const VALIDATION_DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const MAX_UINT32 = 0xffff_ffff;
const SIGNATURE_HEX = /^0x(?:[0-9a-fA-F]{2})+$/;

/** Signature mode byte: 0x00 signs the EIP-712 digest; 0x01 (ledger personal-sign) is not supported. */
export const SIGNATURE_MODE_EIP712 = 0;
const SECP256K1_SIGNATURE_BYTES = 65;
const ED25519_SIGNATURE_BYTES = 64;

export interface OrderSignature {
  mode: typeof SIGNATURE_MODE_EIP712;
  /** The signature without its mode byte: 65 bytes r,s,v (secp256k1) or 64 bytes (Ed25519). */
  signature: Uint8Array;
}

type JsonObject = Record<string, unknown>;

function invalid(path: string, requirement: string): CoreError {
  return new CoreError('INVALID_ORDER', `${path} ${requirement}`);
}

/**
 * A plain JSON object with exactly the given fields (and any of `ignored`, whose values are never
 * read): a typo or an extra field is an error, not ignored.
 */
function exactObject(value: unknown, path: string, fields: readonly string[], ignored: readonly string[] = []): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(path, 'must be an object');
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw invalid(path, 'must be a plain object');
  const object = value as JsonObject;
  for (const key of Object.keys(object)) {
    if (!fields.includes(key) && !ignored.includes(key)) throw invalid(path, `has an unknown field "${key.slice(0, 64)}"`);
  }
  for (const field of fields) {
    if (!Object.hasOwn(object, field)) throw invalid(`${path}.${field}`, 'is required');
  }
  return object;
}

function address(value: unknown, path: string): Address {
  if (!isEvmAddress(value)) throw invalid(path, 'must be a 0x-prefixed 20-byte hex address');
  return value.toLowerCase() as Address;
}

function uint256(value: unknown, path: string): bigint {
  try {
    return parseRawAmount(value, path);
  } catch (error) {
    // Same rules as raw amounts, reported as an order error so the caller sees which field failed.
    if (error instanceof CoreError) throw new CoreError('INVALID_ORDER', error.shortMessage, { cause: error });
    throw error;
  }
}

function uint32(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_UINT32) {
    throw invalid(path, `must be an integer from 0 to ${MAX_UINT32}`);
  }
  return value;
}

/** EIP-712 `bool`: true/false, or 1/0 as clients that echo the API's 0/1 flags send it. */
function boolean(value: unknown, path: string): boolean {
  if (value === 0 || value === 1) return value === 1;
  if (typeof value !== 'boolean') throw invalid(path, 'must be true or false (or 1 or 0)');
  return value;
}

function validationData(value: unknown, path: string): Hex {
  // The length check comes first so a huge string never reaches the regular expression.
  if (typeof value !== 'string' || value.length > 2 + 2 * MAX_VALIDATION_DATA_BYTES || !VALIDATION_DATA.test(value)) {
    throw invalid(path, `must be 0x-prefixed hex of an even length, at most ${MAX_VALIDATION_DATA_BYTES} bytes`);
  }
  return value.toLowerCase() as Hex;
}

/**
 * Parses and validates the `order` object of `POST /orders/save` (strict: all signed fields, nothing
 * else). The `meta` that `/orders/build` returns beside them may come back with the order, as the
 * docs' clients send the built order untouched; it is not signed, so it is never read.
 */
export function parseWireOrder(value: unknown): PartialFillLimitOrder {
  const order = exactObject(
    value,
    'order',
    ['info', 'input', 'output', 'makerOnly', 'takerOnce', 'maxTakerFeePips', 'maxMakerFeePips'],
    ['meta'],
  );
  const info = exactObject(order.info, 'order.info', [
    'reactor',
    'swapper',
    'nonce',
    'deadline',
    'additionalValidationContract',
    'additionalValidationData',
  ]);
  const input = exactObject(order.input, 'order.input', ['token', 'amount']);
  const output = exactObject(order.output, 'order.output', ['token', 'amount', 'recipient']);
  return {
    info: {
      reactor: address(info.reactor, 'order.info.reactor'),
      swapper: address(info.swapper, 'order.info.swapper'),
      nonce: uint256(info.nonce, 'order.info.nonce'),
      deadline: uint256(info.deadline, 'order.info.deadline'),
      additionalValidationContract: address(info.additionalValidationContract, 'order.info.additionalValidationContract'),
      additionalValidationData: validationData(info.additionalValidationData, 'order.info.additionalValidationData'),
    },
    input: { token: address(input.token, 'order.input.token'), amount: uint256(input.amount, 'order.input.amount') },
    output: {
      token: address(output.token, 'order.output.token'),
      amount: uint256(output.amount, 'order.output.amount'),
      recipient: address(output.recipient, 'order.output.recipient'),
    },
    makerOnly: boolean(order.makerOnly, 'order.makerOnly'),
    takerOnce: boolean(order.takerOnce, 'order.takerOnce'),
    maxTakerFeePips: uint32(order.maxTakerFeePips, 'order.maxTakerFeePips'),
    maxMakerFeePips: uint32(order.maxMakerFeePips, 'order.maxMakerFeePips'),
  };
}

/** The wire form of an order; `parseWireOrder(toWireOrder(order))` gives the order back. */
export function toWireOrder(order: PartialFillLimitOrder): WireOrder {
  const { info, input, output } = order;
  return {
    info: {
      reactor: info.reactor,
      swapper: info.swapper,
      nonce: info.nonce.toString(),
      deadline: info.deadline.toString(),
      additionalValidationContract: info.additionalValidationContract,
      additionalValidationData: info.additionalValidationData,
    },
    input: { token: input.token, amount: input.amount.toString() },
    output: { token: output.token, amount: output.amount.toString(), recipient: output.recipient },
    makerOnly: order.makerOnly,
    takerOnce: order.takerOnce,
    maxTakerFeePips: order.maxTakerFeePips,
    maxMakerFeePips: order.maxMakerFeePips,
  };
}

/**
 * Parses the wire signature: one mode byte, then the signature. Only mode 0x00 (EIP-712) with a
 * 65-byte secp256k1 or a 64-byte Ed25519 signature is accepted; which one fits the account is
 * decided by the verifier that knows the account's key type.
 */
export function parseOrderSignature(value: unknown): OrderSignature {
  if (typeof value !== 'string' || !SIGNATURE_HEX.test(value)) {
    throw new CoreError('INVALID_SIGNATURE', 'signature must be 0x-prefixed hex: a mode byte, then the signature');
  }
  const mode = value.slice(2, 4);
  if (mode === '01') {
    throw new CoreError(
      'INVALID_SIGNATURE',
      'signature mode 0x01 (personal-sign) is not supported; sign the EIP-712 digest (mode 0x00)',
    );
  }
  if (mode !== '00') throw new CoreError('INVALID_SIGNATURE', `signature mode 0x${mode} is unknown; use mode 0x00 (EIP-712)`);
  const length = (value.length - 4) / 2;
  if (length !== SECP256K1_SIGNATURE_BYTES && length !== ED25519_SIGNATURE_BYTES) {
    throw new CoreError(
      'INVALID_SIGNATURE',
      `signature must be the mode byte and 65 bytes (secp256k1 r,s,v) or 64 bytes (Ed25519), got ${length} bytes`,
    );
  }
  return { mode: SIGNATURE_MODE_EIP712, signature: hexToBytes(`0x${value.slice(4)}`) };
}
