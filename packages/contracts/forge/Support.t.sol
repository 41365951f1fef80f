// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Test} from "./support/Test.sol";
import {
    FalseReturningToken,
    FeeOnTransferToken,
    GasBurnerToken,
    IFreezingToken,
    PlainToken,
    ReentrantToken
} from "./support/Tokens.sol";

/// The test tokens behave as their one-line descriptions say.
contract SupportTest is Test {
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");

    function test_plainTokenMovesAndSpendsAllowances() public {
        PlainToken token = new PlainToken("PLAIN", 18);
        token.mint(alice, 100);
        vm.prank(alice);
        token.approve(address(this), 60);
        assertTrue(token.transferFrom(alice, bob, 40), "transferFrom");
        assertEq(token.balanceOf(bob), 40, "bob");
        assertEq(token.allowance(alice, address(this)), 20, "allowance left");
        // Each call below reverts, so it returns nothing to check.
        vm.expectRevert(PlainToken.InsufficientAllowance.selector);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(alice, bob, 21);
        vm.prank(alice);
        vm.expectRevert(PlainToken.InsufficientBalance.selector);
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, 61);
    }

    function test_feeOnTransferBurnsTheFee() public {
        FeeOnTransferToken token = new FeeOnTransferToken("FOT", 18, 100); // 1 %
        token.mint(alice, 1_000);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 500), "transfer");
        assertEq(token.balanceOf(bob), 495, "received");
        assertEq(token.balanceOf(alice), 500, "sent");
        assertEq(token.totalSupply(), 995, "burnt");
    }

    /// src/test-support/FreezingToken.sol, as the suites deploy it: a frozen account can neither
    /// receive nor send, and only the minter freezes.
    function test_freezingTokenRefusesFrozenAccounts() public {
        IFreezingToken token = IFreezingToken(deploy("FreezingToken.sol:FreezingToken", ""));
        token.initialize("FROZEN", "FROZEN", 6, address(this));
        vm.prank(alice);
        token.associate();
        vm.prank(bob);
        token.associate();
        token.mint(alice, 10);
        token.mint(bob, 10);
        token.setFrozen(bob, true);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(IFreezingToken.AccountFrozen.selector, bob));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, 1); // reverts: nothing returned to check
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(IFreezingToken.AccountFrozen.selector, bob));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(alice, 1);
        vm.prank(alice);
        vm.expectRevert(IFreezingToken.NotMinter.selector);
        token.setFrozen(alice, true);
        token.setFrozen(bob, false);
        vm.prank(bob);
        assertTrue(token.transfer(alice, 1), "thawed");
    }

    function test_falseReturningTokenSaysFalse() public {
        FalseReturningToken token = new FalseReturningToken("FALSE", 18);
        token.mint(alice, 10);
        vm.prank(alice);
        assertFalse(token.transfer(bob, 11), "overdraft");
        assertFalse(token.transferFrom(alice, bob, 1), "no allowance");
        token.setRefuseAll(true);
        vm.prank(alice);
        assertFalse(token.transfer(bob, 1), "refusing all");
        assertEq(token.balanceOf(bob), 0, "nothing moved");
    }

    function test_reentrantTokenCallsItsHookOnce() public {
        ReentrantToken token = new ReentrantToken("HOOK", 18);
        token.mint(alice, 10);
        token.setHook(address(token), abi.encodeCall(PlainToken.mint, (bob, 7)));
        vm.prank(alice);
        assertTrue(token.transfer(bob, 1), "transfer");
        assertTrue(token.hookSucceeded(), "hook ran");
        assertEq(token.balanceOf(bob), 8, "hook minted");
        assertEq(token.hookTarget(), address(0), "disarmed");
    }

    function test_gasBurnerBurnsEverythingWhileArmed() public {
        GasBurnerToken token = new GasBurnerToken("BURN", 18);
        token.mint(address(this), 10);
        token.setArmed(true);
        uint256 before = gasleft();
        (bool ok, ) = address(token).call{gas: 100_000}(abi.encodeCall(PlainToken.transfer, (bob, 1)));
        assertFalse(ok, "transfer failed");
        assertGe(before - gasleft(), 100_000, "all the gas given");
        token.setArmed(false);
        assertTrue(token.transfer(bob, 1), "disarmed");
    }
}
