import type { Address } from './eip712/order-types.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether a value is a 0x-prefixed 20-byte hex address (any letter case). */
export function isEvmAddress(value: unknown): value is Address {
  return typeof value === 'string' && EVM_ADDRESS.test(value);
}
