// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The part of ERC-20 the reactor uses.
interface IERC20 {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
}
