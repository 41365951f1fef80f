// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// What the reactor needs of the AMM: the factory's one pair per token pair, and its swap.
interface IPairFactory {
    function getPair(address tokenA, address tokenB) external view returns (address);
}

interface IPairSwap {
    /// Pays the outputs to `to` once the input has arrived, if the pair's invariant still holds.
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external;
}
