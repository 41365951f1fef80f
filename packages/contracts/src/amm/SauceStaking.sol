// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ShareToken} from "./ShareToken.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Single-sided SAUCE staking: SAUCE in, xSAUCE shares out. Rewards are plain SAUCE transfers to
/// this contract, so each share's claim (sauceHeld / totalSupply) only grows. Every conversion
/// rounds in the contract's favour: no entry or exit can take SAUCE from the other holders.
///
/// An entry buys whole shares and pays their claim rounded up, not the whole amount offered: the
/// fraction of a share that rounding would withhold stays with the staker. So sending SAUCE to the
/// contract to make one share dear (the first-depositor "inflation" attack: stake 1 unit, send D,
/// and the next deposit of up to 2D buys a single share, a quarter of it the attacker's) takes at
/// most one unit from a later staker; it only makes shares coarse. This is chosen over virtual
/// shares or shares locked at the first entry, which would cost every staker a cut of the rewards
/// and change the figures the indexer and the devnet read (one xSAUCE per SAUCE on an empty
/// contract, a supply that is the sum of the Enter events).
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

    /// SAUCE that `shares` new xSAUCE cost now: their claim, rounded up (one for one while there
    /// are no shares). At most the amount that sharesFor turned into them.
    function sauceToEnter(uint256 shares) public view returns (uint256) {
        uint256 supply = totalSupply;
        return supply == 0 ? shares : (shares * sauceHeld() + supply - 1) / supply;
    }

    /// SAUCE that `shares` xSAUCE redeem now.
    function sauceFor(uint256 shares) public view returns (uint256) {
        uint256 supply = totalSupply;
        return supply == 0 ? 0 : (shares * sauceHeld()) / supply;
    }

    /// Stakes up to `amount` SAUCE (approved to this contract): takes the whole xSAUCE shares it
    /// buys and pulls only their price, sauceToEnter(shares) (the Enter event says how much).
    function enter(uint256 amount) external returns (uint256 shares) {
        shares = sharesFor(amount); // priced before the deposit arrives
        if (shares == 0) revert ZeroShares();
        uint256 paid = sauceToEnter(shares);
        sauce.pull(msg.sender, address(this), paid);
        _mint(msg.sender, shares);
        emit Enter(msg.sender, paid, shares);
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
