// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {OrderInfo, OutputToken, PartialFillInputToken, PartialFillLimitOrder} from "./OrderTypes.sol";

/// EIP-712 struct hashes of the order types. Referenced types follow the primary type in
/// alphabetical order, as EIP-712 encodes them.
library OrderHashing {
    bytes internal constant ORDER_INFO_TYPE =
        "OrderInfo(address reactor,address swapper,uint256 nonce,uint256 deadline,address additionalValidationContract,bytes additionalValidationData)";
    bytes internal constant INPUT_TYPE = "PartialFillInputToken(address token,uint256 amount)";
    bytes internal constant OUTPUT_TYPE = "OutputToken(address token,uint256 amount,address recipient)";
    bytes internal constant ORDER_TYPE = abi.encodePacked(
        "PartialFillLimitOrder(OrderInfo info,PartialFillInputToken input,OutputToken output,bool makerOnly,bool takerOnce,uint32 maxTakerFeePips,uint32 maxMakerFeePips)",
        ORDER_INFO_TYPE,
        OUTPUT_TYPE,
        INPUT_TYPE
    );

    bytes32 internal constant ORDER_INFO_TYPEHASH = keccak256(ORDER_INFO_TYPE);
    bytes32 internal constant INPUT_TYPEHASH = keccak256(INPUT_TYPE);
    bytes32 internal constant OUTPUT_TYPEHASH = keccak256(OUTPUT_TYPE);
    bytes32 internal constant ORDER_TYPEHASH = keccak256(ORDER_TYPE);

    function hash(OrderInfo calldata info) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                ORDER_INFO_TYPEHASH,
                info.reactor,
                info.swapper,
                info.nonce,
                info.deadline,
                info.additionalValidationContract,
                keccak256(info.additionalValidationData)
            )
        );
    }

    function hash(PartialFillInputToken calldata input) internal pure returns (bytes32) {
        return keccak256(abi.encode(INPUT_TYPEHASH, input.token, input.amount));
    }

    function hash(OutputToken calldata output) internal pure returns (bytes32) {
        return keccak256(abi.encode(OUTPUT_TYPEHASH, output.token, output.amount, output.recipient));
    }

    function hash(PartialFillLimitOrder calldata order) internal pure returns (bytes32) {
        return keccak256(
            abi.encode(
                ORDER_TYPEHASH,
                hash(order.info),
                hash(order.input),
                hash(order.output),
                order.makerOnly,
                order.takerOnce,
                order.maxTakerFeePips,
                order.maxMakerFeePips
            )
        );
    }
}
