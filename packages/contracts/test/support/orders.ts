import { type Eip712Domain, ORDER_EIP712_TYPES, type PartialFillLimitOrder } from '@dex/core';
import { type Address, concatHex, type Hex, zeroAddress } from 'viem';
import type { Wallet } from './devnet.js';

/** An order with its wire signature, as `settle` takes it. */
export interface SignedOrder {
  readonly order: PartialFillLimitOrder;
  readonly signature: Hex;
}

const HOUR = 3_600n;

/**
 * Builder of reactor orders for tests: starts from a valid sell of `input` for `output` and
 * changes one thing at a time.
 */
export class TestOrder {
  private constructor(private readonly order: PartialFillLimitOrder) {}

  static sell(
    reactor: Address,
    swapper: Address,
    input: { token: Address; amount: bigint },
    output: { token: Address; amount: bigint },
  ): TestOrder {
    return new TestOrder({
      info: {
        reactor,
        swapper,
        nonce: 1n,
        deadline: BigInt(Math.floor(Date.now() / 1000)) + HOUR,
        additionalValidationContract: zeroAddress,
        additionalValidationData: '0x',
      },
      input: { ...input },
      output: { ...output, recipient: swapper },
      makerOnly: false,
      takerOnce: false,
      maxTakerFeePips: 3_000,
      maxMakerFeePips: 1_000,
    });
  }

  with(change: Partial<Omit<PartialFillLimitOrder, 'info'>> & { info?: Partial<PartialFillLimitOrder['info']> }): TestOrder {
    return new TestOrder({ ...this.order, ...change, info: { ...this.order.info, ...change.info } });
  }

  build(): PartialFillLimitOrder {
    return this.order;
  }

  /** Signs the EIP-712 typed data with a secp256k1 wallet: mode byte 0x00 + r, s, v. */
  async signedBy(wallet: Wallet, domain: Eip712Domain): Promise<SignedOrder> {
    const signature = await wallet.signTypedData({
      domain,
      types: ORDER_EIP712_TYPES,
      primaryType: 'PartialFillLimitOrder',
      message: this.order,
    });
    return { order: this.order, signature: concatHex(['0x00', signature]) };
  }
}

/** One fill as `settle` takes it; fees default to none. */
export function fill(
  fillId: bigint,
  maker: number,
  taker: number,
  makerAmount: bigint,
  takerAmount: bigint,
  fees: { makerFeePips?: number; takerFeePips?: number; makerRebatePips?: number; rebateCapPips?: number } = {},
) {
  return {
    fillId,
    maker,
    taker,
    makerAmount,
    takerAmount,
    makerFeePips: fees.makerFeePips ?? 0,
    takerFeePips: fees.takerFeePips ?? 0,
    makerRebatePips: fees.makerRebatePips ?? 0,
    rebateCapPips: fees.rebateCapPips ?? 0,
  };
}
