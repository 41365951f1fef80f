// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAllowanceTransfer} from "./interfaces/IAllowanceTransfer.sol";
import {IERC20} from "./interfaces/IERC20.sol";

/// The allowance half of Permit2, as clients of the canonical contract call it: an owner approves
/// each token to this contract once (an ERC-20 allowance), then gives each spender an allowance
/// here with an amount and an expiry, and can take every such allowance back at once (`lockdown`).
/// The reactor pulls its fills through it, as the ledger's live reactor does.
///
/// Signature permits (`permit`, `permitTransferFrom`) are not here: the exchange never asks for
/// them, and a client approves with a plain transaction.
contract Permit2 is IAllowanceTransfer {
    /// The allowance an owner gave a spender for a token; `nonce` is kept for the canonical layout
    /// and stays 0, since no signature permit uses it.
    mapping(address owner => mapping(address token => mapping(address spender => PackedAllowance))) private allowed;

    function approve(address token, address spender, uint160 amount, uint48 expiration) external {
        PackedAllowance storage allowance_ = allowed[msg.sender][token][spender];
        // As in the canonical contract: an expiry of 0 means "for this block only".
        uint48 expiresAt = expiration == 0 ? uint48(block.timestamp) : expiration;
        allowance_.amount = amount;
        allowance_.expiration = expiresAt;
        emit Approval(msg.sender, token, spender, amount, expiresAt);
    }

    function allowance(address owner, address token, address spender)
        external
        view
        returns (uint160 amount, uint48 expiration, uint48 nonce)
    {
        PackedAllowance storage allowance_ = allowed[owner][token][spender];
        return (allowance_.amount, allowance_.expiration, allowance_.nonce);
    }

    function transferFrom(address from, address to, uint160 amount, address token) external {
        spend(from, token, amount);
        pay(token, from, to, amount);
    }

    function transferFrom(AllowanceTransferDetails[] calldata transfers) external {
        for (uint256 i = 0; i < transfers.length; i++) {
            AllowanceTransferDetails calldata transfer = transfers[i];
            spend(transfer.from, transfer.token, transfer.amount);
            pay(transfer.token, transfer.from, transfer.to, transfer.amount);
        }
    }

    function lockdown(TokenSpenderPair[] calldata approvals) external {
        for (uint256 i = 0; i < approvals.length; i++) {
            TokenSpenderPair calldata pair = approvals[i];
            allowed[msg.sender][pair.token][pair.spender].amount = 0;
            emit Lockdown(msg.sender, pair.token, pair.spender);
        }
    }

    /// Takes `amount` off the caller's allowance from `owner`; the largest amount never runs down.
    function spend(address owner, address token, uint160 amount) private {
        PackedAllowance storage allowance_ = allowed[owner][token][msg.sender];
        // An expiry is a date the owner chose, seconds to years ahead: a validator's few seconds of
        // leeway on the block time move it by no more than that, as in the canonical contract.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp > allowance_.expiration) revert AllowanceExpired(allowance_.expiration);
        uint160 available = allowance_.amount;
        if (available == type(uint160).max) return;
        if (amount > available) revert InsufficientAllowance(available);
        unchecked {
            allowance_.amount = available - amount;
        }
    }

    /// Moves the tokens with this contract's ERC-20 allowance; tokens that return nothing succeed by
    /// not reverting, the rest must return true.
    function pay(address token, address from, address to, uint160 amount) private {
        if (token.code.length == 0) revert TransferFromFailed();
        (bool ok, bytes memory result) = token.call(abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
        if (!ok || (result.length != 0 && (result.length != 32 || !abi.decode(result, (bool))))) {
            revert TransferFromFailed();
        }
    }
}
