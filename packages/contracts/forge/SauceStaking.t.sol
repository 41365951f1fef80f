// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IStaking} from "./support/AmmInterfaces.sol";
import {Test} from "./support/Test.sol";
import {PlainToken} from "./support/Tokens.sol";

/// SauceStaking's promises: an entry or exit never takes SAUCE from the other holders, and (the
/// first-depositor attack) no staker loses more than dust to whoever staked before them.
contract SauceStakingTest is Test {
    /// What a staker may lose to rounding when entering: one SAUCE unit.
    uint256 internal constant DUST = 1;

    PlainToken internal sauce;
    IStaking internal staking;
    address internal attacker = makeAddr("attacker");
    address internal victim = makeAddr("victim");

    function setUp() public {
        sauce = new PlainToken("SAUCE", 6);
        staking = IStaking(deploy("SauceStaking.sol:SauceStaking", abi.encode(address(sauce))));
        for (uint256 i; i < 2; ++i) {
            address who = i == 0 ? attacker : victim;
            sauce.mint(who, 1e30);
            vm.prank(who);
            sauce.approve(address(staking), type(uint256).max);
        }
    }

    /// SAUCE the victim lost by entering with `amount`: what left their wallet less what their
    /// new shares redeem right after.
    function entryLoss(uint256 amount) internal returns (uint256) {
        uint256 walletBefore = sauce.balanceOf(victim);
        vm.prank(victim);
        uint256 shares = staking.enter(amount);
        uint256 paid = walletBefore - sauce.balanceOf(victim);
        uint256 worth = staking.sauceFor(shares);
        return paid > worth ? paid - worth : 0;
    }

    /// The attack: stake 1 unit, send D straight to the contract, and a deposit of up to 2D that
    /// follows buys a single share, a quarter of it going to the attacker's one share.
    function test_firstDepositorCannotTakeALaterDeposit() public {
        uint256 donation = 1_000 * 1e6;
        vm.startPrank(attacker);
        staking.enter(1);
        assertTrue(sauce.transfer(address(staking), donation), "donation");
        vm.stopPrank();

        uint256 loss = entryLoss(2 * donation);
        assertLe(loss, DUST, "victim's loss to the first depositor, SAUCE units");

        // Nor does the attacker come out ahead.
        uint256 attackerShares = staking.balanceOf(attacker);
        vm.prank(attacker);
        uint256 back = staking.leave(attackerShares);
        assertLe(back, donation + 1, "attacker's exit, SAUCE units (their stake and donation were donation + 1)");
    }

    /// The same for any stake, donation and deposit.
    function testFuzz_firstDepositorCannotTakeALaterDeposit(uint256 stake, uint256 donation, uint256 deposit) public {
        stake = bound(stake, 1, 1e18);
        donation = bound(donation, 0, 1e24);
        vm.startPrank(attacker);
        staking.enter(stake);
        assertTrue(sauce.transfer(address(staking), donation), "donation");
        vm.stopPrank();
        deposit = bound(deposit, 1, 1e25);
        vm.assume(staking.sharesFor(deposit) != 0); // else the entry is refused: nothing lost
        assertLe(entryLoss(deposit), DUST, "victim's loss, SAUCE units");
    }

    /// Before anyone stakes, the first staker takes whatever was sent in: one share per unit.
    function test_firstStakerTakesEarlierDonations() public {
        vm.prank(attacker);
        assertTrue(sauce.transfer(address(staking), 500), "donation");
        vm.prank(victim);
        assertEq(staking.enter(1_000), 1_000, "shares, one for one");
        assertEq(staking.sauceFor(1_000), 1_500, "the donation is the victim's");
    }

    /// An entry worth less than one share is refused, and costs nothing.
    function test_refusesAnEntryWorthNoShare() public {
        vm.prank(attacker);
        staking.enter(1);
        vm.prank(attacker);
        assertTrue(sauce.transfer(address(staking), 999), "reward");
        uint256 before = sauce.balanceOf(victim);
        vm.prank(victim);
        vm.expectRevert(IStaking.ZeroShares.selector);
        staking.enter(999);
        assertEq(sauce.balanceOf(victim), before, "victim's wallet");
    }
}
