// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {TestToken} from "../devnet/TestToken.sol";

/// A test token whose minter can freeze an account, as a ledger token's freeze key can: a frozen
/// account can neither send nor receive it. The TypeScript tests and the forge suites (their only
/// blocklist token) use it for an account that refuses a token.
contract FreezingToken is TestToken {
    error AccountFrozen(address account);

    mapping(address => bool) public frozen;

    function setFrozen(address account, bool frozen_) external {
        if (msg.sender != minter) revert NotMinter();
        frozen[account] = frozen_;
    }

    function move(address from, address to, uint256 amount) internal override {
        if (frozen[from]) revert AccountFrozen(from);
        if (frozen[to]) revert AccountFrozen(to);
        super.move(from, to, amount);
    }
}
