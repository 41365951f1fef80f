// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The signed order (EIP-712 primary type `PartialFillLimitOrder`), field for field as the
/// service's API builds it.
struct OrderInfo {
    address reactor;
    address swapper;
    uint256 nonce;
    uint256 deadline;
    address additionalValidationContract;
    bytes additionalValidationData;
}

struct PartialFillInputToken {
    address token;
    uint256 amount;
}

struct OutputToken {
    address token;
    uint256 amount;
    address recipient;
}

struct PartialFillLimitOrder {
    OrderInfo info;
    PartialFillInputToken input;
    OutputToken output;
    bool makerOnly;
    bool takerOnce;
    uint32 maxTakerFeePips;
    uint32 maxMakerFeePips;
}

/// An order with its wire signature: a mode byte, then the signature.
struct SignedOrder {
    PartialFillLimitOrder order;
    bytes signature;
}

/// One matched pair to settle. `maker` and `taker` index the batch's orders. The maker pays
/// `makerAmount` of its input token to the taker; the taker pays `takerAmount` of its input token
/// to the maker. Fees are rates in pips (1 pip = 1e-6) of what each side receives. A maker with a
/// rebate (`makerRebatePips` of what it pays, instead of a fee) gets it out of the taker's fee, at
/// most `rebateCapPips` of that fee.
struct Fill {
    uint64 fillId;
    uint16 maker;
    uint16 taker;
    uint32 makerFeePips;
    uint32 takerFeePips;
    uint32 makerRebatePips;
    uint32 rebateCapPips;
    uint256 makerAmount;
    uint256 takerAmount;
}

/// A taker's swap with the AMM pair of its two tokens, which the engine routed part of the order
/// into. The taker pays `amountIn` of its input token into the pair; the pair pays `amountOut` of
/// the taker's output token, which reaches the taker less its fee (pips of what it receives).
struct PoolFill {
    uint64 fillId;
    uint16 taker;
    uint32 takerFeePips;
    uint256 amountIn;
    uint256 amountOut;
}
