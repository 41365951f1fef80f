// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// Constant-product arithmetic with a 0.30 % fee taken from the input. Every division rounds down,
/// and `amountIn` adds one unit, so a rounded quote never lets a swap break the pair's invariant.
library AmmMath {
    error ZeroAmount();
    error InsufficientLiquidity();

    /// Of each 1000 units paid in, 997 count towards the price; 3 stay in the pool as the fee.
    uint256 internal constant FEE_SCALE = 1000;
    uint256 internal constant AFTER_FEE = 997;

    /// What `paid` buys from reserves `reserveIn`/`reserveOut`.
    function amountOut(uint256 paid, uint256 reserveIn, uint256 reserveOut) internal pure returns (uint256) {
        if (paid == 0) revert ZeroAmount();
        if (reserveIn == 0 || reserveOut == 0) revert InsufficientLiquidity();
        uint256 counted = paid * AFTER_FEE;
        return (counted * reserveOut) / (reserveIn * FEE_SCALE + counted);
    }

    /// The least input that buys `bought` from reserves `reserveIn`/`reserveOut`.
    function amountIn(uint256 bought, uint256 reserveIn, uint256 reserveOut) internal pure returns (uint256) {
        if (bought == 0) revert ZeroAmount();
        if (reserveIn == 0 || reserveOut <= bought) revert InsufficientLiquidity();
        return (reserveIn * bought * FEE_SCALE) / ((reserveOut - bought) * AFTER_FEE) + 1;
    }

    /// `amountA` valued in B at the reserves' ratio, no fee (for adding liquidity).
    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) internal pure returns (uint256) {
        if (amountA == 0) revert ZeroAmount();
        if (reserveA == 0 || reserveB == 0) revert InsufficientLiquidity();
        return (amountA * reserveB) / reserveA;
    }

    /// floor(sqrt(x)).
    function sqrt(uint256 x) internal pure returns (uint256 root) {
        if (x == 0) return 0;
        // floor(log2(x)) by halving steps, then a first guess 2^(floor(log2(x))/2 + 1), which is
        // above sqrt(x): from above, Newton's integer steps fall monotonically to floor(sqrt(x)).
        uint256 log2;
        uint256 rest = x;
        for (uint256 step = 128; step != 0; step >>= 1) {
            if (rest >> step != 0) {
                rest >>= step;
                log2 += step;
            }
        }
        // 2^(log2/2 + 1): the literal 1 shifted, as meant.
        // forge-lint: disable-next-line(incorrect-shift)
        root = 1 << ((log2 >> 1) + 1);
        while (true) {
            uint256 next = (root + x / root) >> 1;
            if (next >= root) return root;
            root = next;
        }
    }
}
