// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAmmToken} from "./IAmm.sol";

/// ERC-20 transfers that accept tokens returning nothing, refuse those returning false, and pass
/// a token's own revert reason on (an allowance or balance error says more than a generic one).
library TokenTransfers {
    error TransferFailed(address token);

    function send(address token, address to, uint256 amount) internal {
        invoke(token, abi.encodeCall(IAmmToken.transfer, (to, amount)));
    }

    function pull(address token, address from, address to, uint256 amount) internal {
        invoke(token, abi.encodeCall(IAmmToken.transferFrom, (from, to, amount)));
    }

    function balanceOf(address token, address account) internal view returns (uint256) {
        return IAmmToken(token).balanceOf(account);
    }

    function invoke(address token, bytes memory data) private {
        (bool ok, bytes memory result) = token.call(data);
        if (!ok) {
            if (result.length == 0) revert TransferFailed(token);
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
        if (result.length == 0) {
            // A call to an address without code succeeds with no data: that moved nothing.
            if (token.code.length == 0) revert TransferFailed(token);
        } else if (!abi.decode(result, (bool))) {
            revert TransferFailed(token);
        }
    }
}
