// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {TestToken} from "./TestToken.sol";

/// The devnet's wrapped native coin (WHBAR): one token unit per tinybar, backed one for one by the
/// native coin it holds. The ledger counts HBAR in tinybar (8 decimals) while its EVM, and anvil,
/// count the native coin in wei-like units of 18 decimals (1 tinybar = 1e10 of them, as the
/// ledger's JSON-RPC relay converts), so a deposit or withdrawal that is not whole tinybars is
/// refused rather than rounded. It is a TestToken (the devnet installs it at the token's ledger
/// address and initialises it there) whose minter is the contract itself, which never mints: every
/// unit in circulation was deposited.
contract WrappedNative is TestToken {
    /// Native units (wei) in one token unit (tinybar).
    uint256 public constant NATIVE_PER_UNIT = 1e10;

    error NotWholeUnits();
    error NativeTransferFailed();

    event Deposit(address indexed account, uint256 amount);
    event Withdrawal(address indexed account, uint256 amount);

    /// Wraps the native coin sent: msg.value / 1e10 units to the sender.
    function deposit() public payable {
        if (msg.value % NATIVE_PER_UNIT != 0) revert NotWholeUnits();
        uint256 amount = msg.value / NATIVE_PER_UNIT;
        // A token of the ledger like any other: only an associated account may hold it.
        if (amount != 0 && !associatedWith(msg.sender)) revert TokenNotAssociatedToAccount(msg.sender);
        totalSupply += amount;
        balanceOf[msg.sender] += amount;
        emit Transfer(address(0), msg.sender, amount);
        emit Deposit(msg.sender, amount);
    }

    /// Native coin sent without a call wraps as a deposit does.
    receive() external payable {
        deposit();
    }

    /// Unwraps `amount` units of the sender's into amount * 1e10 of the native coin, sent to the sender.
    function withdraw(uint256 amount) external {
        uint256 balance = balanceOf[msg.sender];
        if (balance < amount) revert InsufficientBalance();
        // Effects before the native transfer: a reentrant call sees the balance already spent.
        unchecked {
            balanceOf[msg.sender] = balance - amount;
            totalSupply -= amount;
        }
        emit Transfer(msg.sender, address(0), amount);
        emit Withdrawal(msg.sender, amount);
        (bool sent,) = msg.sender.call{value: amount * NATIVE_PER_UNIT}("");
        if (!sent) revert NativeTransferFailed();
    }
}
