// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IStaking} from "../support/AmmInterfaces.sol";
import {Test} from "../support/Test.sol";
import {StakingHandler} from "./StakingHandler.sol";

/// SauceStaking's promises under any sequence of entries, exits and donations: the SAUCE per
/// share never falls (by an entry, an exit or a donation), no entry loses more than dust to the
/// stakers before it, and the contract can always pay every holder's claim.
contract StakingInvariantTest is Test {
    StakingHandler internal handler;

    function setUp() public {
        handler = new StakingHandler();
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](3);
        selectors[0] = StakingHandler.enter.selector;
        selectors[1] = StakingHandler.leave.selector;
        selectors[2] = StakingHandler.donate.selector;
        targetSelector(address(handler), selectors);
    }

    function invariant_noEntryLosesMoreThanDustAndThePriceNeverFalls() public view {
        string memory violation = handler.violation();
        assertTrue(bytes(violation).length == 0, violation);
        assertLe(handler.worstEntryLoss(), handler.DUST(), "worst loss of an entry, SAUCE units");
    }

    /// The holders' claims add up to no more than the SAUCE held, and a share never claims less
    /// than one SAUCE unit (shares start one for one and only gain).
    function invariant_claimsAreCovered() public view {
        IStaking staking = handler.staking();
        (uint256 held, uint256 supply) = handler.state();
        address[] memory actors = handler.actorList();
        uint256 claims;
        uint256 shares;
        for (uint256 i; i < actors.length; ++i) {
            uint256 balance = staking.balanceOf(actors[i]);
            shares += balance;
            claims += staking.sauceFor(balance);
        }
        assertEq(shares, supply, "the stakers' shares add up to the supply");
        assertLe(claims, held, "claims covered by the SAUCE held");
        assertGe(held, supply, "SAUCE per share at least one");
    }
}
