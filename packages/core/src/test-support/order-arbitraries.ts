import fc from 'fast-check';
import { MAX_UINT256 } from '../amount.js';
import { bytesToHex } from '../eip712/hex.js';
import type { Address, PartialFillLimitOrder } from '../eip712/order-types.js';

export const addressArbitrary = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => bytesToHex(bytes) as Address);

/** Any signed order the types allow, with up to `maxDataBytes` of additional validation data. */
export function orderArbitrary(maxDataBytes: number): fc.Arbitrary<PartialFillLimitOrder> {
  const uint256 = fc.bigInt({ min: 0n, max: MAX_UINT256 });
  const uint32 = fc.integer({ min: 0, max: 0xffff_ffff });
  return fc.record({
    info: fc.record({
      reactor: addressArbitrary,
      swapper: addressArbitrary,
      nonce: uint256,
      deadline: uint256,
      additionalValidationContract: addressArbitrary,
      additionalValidationData: fc.uint8Array({ maxLength: maxDataBytes }).map((bytes) => bytesToHex(bytes)),
    }),
    input: fc.record({ token: addressArbitrary, amount: uint256 }),
    output: fc.record({ token: addressArbitrary, amount: uint256, recipient: addressArbitrary }),
    makerOnly: fc.boolean(),
    takerOnce: fc.boolean(),
    maxTakerFeePips: uint32,
    maxMakerFeePips: uint32,
  });
}
