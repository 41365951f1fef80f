import type { Eip712Domain, PartialFillLimitOrder } from './order-types.js';

/**
 * The EIP-712 types of an order in the shape typed-data signers take (viem's `signTypedData`,
 * ethers' `signTypedData`), without the domain type, which the signer derives from the domain.
 */
export const ORDER_EIP712_TYPES = {
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

/** The typed-data parameters of an order (viem's `hashTypedData` / `signTypedData`): bigints as they are. */
export function orderTypedData(domain: Eip712Domain, order: PartialFillLimitOrder) {
  return { domain, types: ORDER_EIP712_TYPES, primaryType: 'PartialFillLimitOrder', message: order } as const;
}
