// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The parts of ERC-20 the AMM contracts call.
interface IAmmToken {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// A token whose minter lets the farm mint rewards (SAUCE on the devnet: TestToken).
interface IMintableToken {
    function mint(address to, uint256 amount) external;
}

interface IAmmFactory {
    function feeTo() external view returns (address);
    function getPair(address tokenA, address tokenB) external view returns (address);
    function createPair(address tokenA, address tokenB) external returns (address);
}

interface IAmmPair {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function mint(address to) external returns (uint256 liquidity);
    function burn(address to) external returns (uint256 amount0, uint256 amount1);
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external;
}
