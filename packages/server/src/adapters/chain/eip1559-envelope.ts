import {
  getTransactionType,
  type Hex,
  type Signature,
  type TransactionSerializable,
  type TransactionSerializableEIP1559,
} from 'viem';

/**
 * EIP-1559 transactions (type 2) as bytes, RLP-encoded with Buffers: viem's serializer walks hex
 * strings in JavaScript, about 3 ms for the 120 kB of a settlement batch, and signing serializes
 * twice. Covers what the operator sends: no access list, no authorization list. The output equals
 * viem's serializeTransaction (a property test checks it).
 */
export function isPlainEip1559(transaction: TransactionSerializable): transaction is TransactionSerializableEIP1559 {
  const { accessList } = transaction;
  let type: string;
  try {
    type = getTransactionType(transaction);
  } catch {
    return false; // viem's serializer says what is wrong with it
  }
  return (
    type === 'eip1559' &&
    (accessList === undefined || accessList.length === 0) &&
    !('authorizationList' in transaction && transaction.authorizationList !== undefined)
  );
}

/** `0x02 ‖ rlp([chainId, nonce, tip, maxFee, gas, to, value, data, [], (yParity, r, s)])`. */
export function eip1559Envelope(transaction: TransactionSerializableEIP1559, signature?: Signature): Buffer {
  const { chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value, data } = transaction;
  if (!(chainId > 0)) throw new RangeError('an EIP-1559 transaction needs a chain id above 0');
  const fields = [
    quantity(chainId),
    quantity(nonce ?? 0),
    quantity(maxPriorityFeePerGas ?? 0n),
    quantity(maxFeePerGas ?? 0n),
    quantity(gas ?? 0n),
    to === undefined || to === null ? EMPTY : bytesOf(to),
    quantity(value ?? 0n),
    data === undefined ? EMPTY : bytesOf(data),
  ].map(rlpString);
  fields.push(EMPTY_LIST);
  if (signature !== undefined) {
    const parity = signature.yParity ?? (signature.v === 28n || signature.v === 1n ? 1 : 0);
    fields.push(rlpString(quantity(parity)), rlpString(trimmed(bytesOf(signature.r))), rlpString(trimmed(bytesOf(signature.s))));
  }
  return Buffer.concat([TYPE_2, rlpList(fields)]);
}

const TYPE_2 = Buffer.of(0x02);
const EMPTY = Buffer.alloc(0);
const EMPTY_LIST = Buffer.of(0xc0);

function bytesOf(hex: Hex): Buffer {
  return Buffer.from(hex.slice(2), 'hex');
}

/** A number as its shortest big-endian bytes (none for zero). */
function quantity(value: number | bigint): Buffer {
  const hex = BigInt(value).toString(16);
  return value === 0 || value === 0n ? EMPTY : Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex');
}

function trimmed(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length && bytes[start] === 0) start++;
  return bytes.subarray(start);
}

function header(length: number, offset: 0x80 | 0xc0): Buffer {
  if (length <= 55) return Buffer.of(offset + length);
  const size = quantity(length);
  return Buffer.concat([Buffer.of(offset + 55 + size.length), size]);
}

function rlpString(bytes: Buffer): Buffer {
  if (bytes.length === 1 && (bytes[0] as number) < 0x80) return bytes;
  return Buffer.concat([header(bytes.length, 0x80), bytes]);
}

function rlpList(items: readonly Buffer[]): Buffer {
  const length = items.reduce((sum, item) => sum + item.length, 0);
  return Buffer.concat([header(length, 0xc0), ...items]);
}
