// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ShareToken} from "./ShareToken.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Single-sided SAUCE staking: SAUCE in, xSAUCE shares out. Rewards are plain SAUCE transfers to
/// this contract, so each share's claim (sauceHeld / totalSupply) only grows. Both conversions
/// round down, in the contract's favour: no entry or exit can take SAUCE from the other holders.
contract SauceStaking is ShareToken {
    using TokenTransfers for address;

    error ZeroShares();
    error ZeroSauce();

    event Enter(address indexed user, uint256 sauce, uint256 xsauce);
    event Leave(address indexed user, uint256 sauce, uint256 xsauce);

    string public constant name = "xSAUCE";
    string public constant symbol = "XSAUCE";
    uint8 public constant decimals = 6;

    address public immutable sauce;

    constructor(address sauce_) {
        sauce = sauce_;
    }

    function sauceHeld() public view returns (uint256) {
        return sauce.balanceOf(address(this));
    }

    /// xSAUCE that `amount` SAUCE buys now: one for one while there are no shares (the first
    /// staker also takes any SAUCE sent before anyone staked).
    function sharesFor(uint256 amount) public view returns (uint256) {
        uint256 supply = totalSupply;
        // sauceHeld() > 0 whenever supply > 0: a leave of fewer than all shares rounds down.
        return supply == 0 ? amount : (amount * supply) / sauceHeld();
    }

    /// SAUCE that `shares` xSAUCE redeem now.
    function sauceFor(uint256 shares) public view returns (uint256) {
        uint256 supply = totalSupply;
        return supply == 0 ? 0 : (shares * sauceHeld()) / supply;
    }

    /// Stakes `amount` SAUCE (approved to this contract) for xSAUCE.
    function enter(uint256 amount) external returns (uint256 shares) {
        shares = sharesFor(amount); // priced before the deposit arrives
        if (shares == 0) revert ZeroShares();
        sauce.pull(msg.sender, address(this), amount);
        _mint(msg.sender, shares);
        emit Enter(msg.sender, amount, shares);
    }

    /// Burns `shares` xSAUCE for their SAUCE.
    function leave(uint256 shares) external returns (uint256 amount) {
        amount = sauceFor(shares);
        if (amount == 0) revert ZeroSauce();
        _burn(msg.sender, shares);
        sauce.send(msg.sender, amount);
        emit Leave(msg.sender, amount, shares);
    }
}
