// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The devnet's wrapped native coin (src/devnet/WrappedNative.sol) as the suites call it.
interface IWrappedNative {
    error NotWholeUnits();
    error NativeTransferFailed();
    error InsufficientBalance();
    error NotMinter();
    error TokenNotAssociatedToAccount(address account);

    function initialize(string calldata name, string calldata symbol, uint8 decimals, address minter) external;
    function associate() external returns (uint256 responseCode);
    function deposit() external payable;
    function withdraw(uint256 amount) external;
    function transfer(address to, uint256 amount) external returns (bool);
    function mint(address to, uint256 amount) external;
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function decimals() external view returns (uint8);
}
