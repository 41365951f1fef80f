// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Test} from "./support/Test.sol";
import {IWrappedNative} from "./support/WrappedNativeInterface.sol";

/// Refuses the native coin: a withdrawal to it cannot be paid out.
contract NativeRefuser {
    function unwrap(IWrappedNative wrapped, uint256 amount) external {
        wrapped.withdraw(amount);
    }
}

/// WrappedNative's promises: a deposit of whole tinybars (1e10 wei each) gives as many units, a
/// withdrawal pays them back exactly, nothing that is not whole tinybars is accepted or rounded,
/// and nobody mints outside a deposit.
contract WrappedNativeTest is Test {
    uint256 internal constant WEI_PER_TINYBAR = 1e10;

    IWrappedNative internal wrapped;
    address internal holder = makeAddr("holder");

    function setUp() public {
        wrapped = IWrappedNative(deploy("WrappedNative.sol:WrappedNative", ""));
        // Its own minter: a contract that never calls mint, so every unit was deposited.
        wrapped.initialize("Wrapped HBAR", "WHBAR", 8, address(wrapped));
        vm.deal(holder, 1e30);
        // A token of the ledger: its holders associate first.
        vm.prank(holder);
        wrapped.associate();
    }

    function test_aDepositFromAnAccountThatHasNotAssociatedIsRefused() public {
        address stranger = makeAddr("stranger");
        vm.deal(stranger, 1e18);
        vm.prank(stranger);
        vm.expectRevert(abi.encodeWithSelector(IWrappedNative.TokenNotAssociatedToAccount.selector, stranger));
        wrapped.deposit{value: 1e18}();
    }

    function test_aDepositOfOneHbarGivesOneHundredMillionUnits() public {
        vm.prank(holder);
        wrapped.deposit{value: 1e18}();
        assertEq(wrapped.balanceOf(holder), 1e8, "units for 1 HBAR");
        assertEq(wrapped.totalSupply(), 1e8, "supply");
        assertEq(address(wrapped).balance, 1e18, "native held");
        assertEq(wrapped.decimals(), 8, "decimals");
    }

    function test_nativeCoinSentWithoutACallWrapsToo() public {
        vm.prank(holder);
        (bool sent,) = address(wrapped).call{value: 3 * WEI_PER_TINYBAR}("");
        assertTrue(sent, "plain transfer accepted");
        assertEq(wrapped.balanceOf(holder), 3, "units for 3 tinybar");
    }

    function test_aDepositThatIsNotWholeTinybarsIsRefused() public {
        vm.prank(holder);
        vm.expectRevert(IWrappedNative.NotWholeUnits.selector);
        wrapped.deposit{value: WEI_PER_TINYBAR + 1}();
        vm.prank(holder);
        vm.expectRevert(IWrappedNative.NotWholeUnits.selector);
        wrapped.deposit{value: 1}();
    }

    function test_withdrawingMoreThanTheBalanceIsRefused() public {
        vm.startPrank(holder);
        wrapped.deposit{value: 5 * WEI_PER_TINYBAR}();
        vm.expectRevert(IWrappedNative.InsufficientBalance.selector);
        wrapped.withdraw(6);
        vm.stopPrank();
    }

    function test_nobodyMintsOutsideADeposit() public {
        vm.prank(holder);
        vm.expectRevert(IWrappedNative.NotMinter.selector);
        wrapped.mint(holder, 1);
    }

    function test_aWithdrawalTheRecipientRefusesUndoesItself() public {
        NativeRefuser refuser = new NativeRefuser();
        vm.prank(holder);
        wrapped.deposit{value: 7 * WEI_PER_TINYBAR}();
        vm.prank(holder);
        assertTrue(wrapped.transfer(address(refuser), 7), "transfer");
        vm.expectRevert(IWrappedNative.NativeTransferFailed.selector);
        refuser.unwrap(wrapped, 7);
        assertEq(wrapped.balanceOf(address(refuser)), 7, "units kept");
        assertEq(address(wrapped).balance, 7 * WEI_PER_TINYBAR, "native kept");
    }

    /// Any whole-tinybar deposit and any part of it withdrawn: the holder gets back exactly what it
    /// withdrew, in wei, and the contract keeps exactly the rest.
    function testFuzz_depositThenWithdrawPaysBackExactly(uint256 tinybar, uint256 back) public {
        tinybar = bound(tinybar, 1, 1e18);
        back = bound(back, 0, tinybar);
        uint256 before = holder.balance;
        vm.startPrank(holder);
        wrapped.deposit{value: tinybar * WEI_PER_TINYBAR}();
        wrapped.withdraw(back);
        vm.stopPrank();
        assertEq(before - holder.balance, (tinybar - back) * WEI_PER_TINYBAR, "native spent");
        assertEq(wrapped.balanceOf(holder), tinybar - back, "units left");
        assertEq(address(wrapped).balance, wrapped.totalSupply() * WEI_PER_TINYBAR, "backing");
    }

    /// Any amount of wei that is not a multiple of 1e10 is refused.
    function testFuzz_partTinybarsAreRefused(uint256 value) public {
        value = bound(value, 1, 1e30);
        vm.assume(value % WEI_PER_TINYBAR != 0);
        vm.prank(holder);
        vm.expectRevert(IWrappedNative.NotWholeUnits.selector);
        wrapped.deposit{value: value}();
    }
}
