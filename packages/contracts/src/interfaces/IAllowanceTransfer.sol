// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The allowance calls of Permit2 that the exchange's clients and its reactor use, with the
/// canonical contract's signatures, events and errors.
interface IAllowanceTransfer {
    /// One owner's allowance for one token and spender, in one storage slot.
    struct PackedAllowance {
        uint160 amount;
        uint48 expiration;
        uint48 nonce;
    }

    struct AllowanceTransferDetails {
        address from;
        address to;
        uint160 amount;
        address token;
    }

    struct TokenSpenderPair {
        address token;
        address spender;
    }

    error AllowanceExpired(uint256 deadline);
    error InsufficientAllowance(uint256 amount);
    /// The token refused the move (or is no contract); not in the canonical ABI, which reverts with
    /// its transfer library's message.
    error TransferFromFailed();

    event Approval(
        address indexed owner, address indexed token, address indexed spender, uint160 amount, uint48 expiration
    );
    event Lockdown(address indexed owner, address token, address spender);

    function approve(address token, address spender, uint160 amount, uint48 expiration) external;

    function allowance(address owner, address token, address spender)
        external
        view
        returns (uint160 amount, uint48 expiration, uint48 nonce);

    function transferFrom(address from, address to, uint160 amount, address token) external;

    function transferFrom(AllowanceTransferDetails[] calldata transfers) external;

    function lockdown(TokenSpenderPair[] calldata approvals) external;
}
