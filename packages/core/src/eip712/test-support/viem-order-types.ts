import type { Eip712Domain, PartialFillLimitOrder } from '../order-types.js';

/** The order types as viem's typed-data API takes them: the independent implementation tests compare with. */
export const VIEM_ORDER_TYPES = {
  PartialFillLimitOrder: [
    { name: 'info', type: 'OrderInfo' },
    { name: 'input', type: 'PartialFillInputToken' },
    { name: 'output', type: 'OutputToken' },
    { name: 'makerOnly', type: 'bool' },
    { name: 'takerOnce', type: 'bool' },
    { name: 'maxTakerFeePips', type: 'uint32' },
    { name: 'maxMakerFeePips', type: 'uint32' },
  ],
  OrderInfo: [
    { name: 'reactor', type: 'address' },
    { name: 'swapper', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'additionalValidationContract', type: 'address' },
    { name: 'additionalValidationData', type: 'bytes' },
  ],
  PartialFillInputToken: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
  ],
  OutputToken: [
    { name: 'token', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'recipient', type: 'address' },
  ],
} as const;

export const VIEM_DOMAIN_TYPES = {
  EIP712Domain: [
    { name: 'name', type: 'string' },
    { name: 'version', type: 'string' },
    { name: 'chainId', type: 'uint256' },
    { name: 'verifyingContract', type: 'address' },
  ],
} as const;

/** The `hashTypedData` / `signTypedData` parameters of an order. */
export function orderTypedData(domain: Eip712Domain, order: PartialFillLimitOrder) {
  return { domain, types: VIEM_ORDER_TYPES, primaryType: 'PartialFillLimitOrder', message: order } as const;
}
