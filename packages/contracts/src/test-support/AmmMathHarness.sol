// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "../amm/AmmMath.sol";

/// Exposes AmmMath to the tests, which check it against a bigint reimplementation.
contract AmmMathHarness {
    function amountOut(uint256 paid, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return AmmMath.amountOut(paid, reserveIn, reserveOut);
    }

    function amountIn(uint256 bought, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return AmmMath.amountIn(bought, reserveIn, reserveOut);
    }

    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) external pure returns (uint256) {
        return AmmMath.quote(amountA, reserveA, reserveB);
    }

    function sqrt(uint256 x) external pure returns (uint256) {
        return AmmMath.sqrt(x);
    }
}
