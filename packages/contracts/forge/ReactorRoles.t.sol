// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PoolFill, SignedOrder} from "../src/lib/OrderTypes.sol";
import {ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Role} from "./support/ReactorInterfaces.sol";

/// Roles change in two steps: the owner proposes, and after `changeDelay` the new holder itself
/// takes the role up (the owner, for a pair factory), so a mistyped address never takes over and
/// everyone sees a change coming. The first pair factory needs no wait.
contract ReactorRolesTest is ReactorTest {
    address internal stranger = makeAddr("stranger");

    function setUp() public {
        setUpBook();
    }

    function holderOf(Role role) internal view returns (address) {
        if (role == Role.Owner) return reactor.owner();
        if (role == Role.Operator) return reactor.operator();
        if (role == Role.FeeRecipient) return reactor.feeRecipient();
        return reactor.pairFactory();
    }

    function testFuzz_aRoleChangeWaitsTheDelayAndIsTakenUpByItsNewHolder(uint8 roleSeed, address holder, uint256 early)
        public
    {
        Role role = Role(bound(roleSeed, 0, 2));
        vm.assume(holder != address(0) && holder != address(this) && holder != stranger);
        early = bound(early, 0, CHANGE_DELAY - 1);
        address before = holderOf(role);
        uint256 proposedAt = vm.getBlockTimestamp();
        reactor.proposeRole(role, holder);
        (address pending, uint64 readyAt) = reactor.pendingChange(role);
        assertEq(pending, holder, "pending holder");
        assertEq(readyAt, proposedAt + CHANGE_DELAY, "ready after the delay");

        vm.warp(proposedAt + early);
        vm.prank(holder);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(role);
        assertEq(holderOf(role), before, "unchanged before the delay");

        vm.warp(proposedAt + CHANGE_DELAY);
        vm.prank(stranger);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(role);
        vm.prank(holder);
        reactor.acceptRole(role);
        assertEq(holderOf(role), holder, "taken up by its new holder");
        (pending, readyAt) = reactor.pendingChange(role);
        assertEq(readyAt, 0, "nothing pending after");
        vm.prank(holder);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(role);
    }

    function testFuzz_onlyTheOwnerProposes(uint8 roleSeed) public {
        Role role = Role(bound(roleSeed, 0, 3));
        vm.prank(stranger);
        vm.expectRevert(IReactor.NotOwner.selector);
        reactor.proposeRole(role, stranger);
    }

    /// The operator that was stops settling once its successor takes over.
    function test_aNewOperatorReplacesTheOldOne() public {
        reactor.proposeRole(Role.Operator, stranger);
        vm.warp(vm.getBlockTimestamp() + CHANGE_DELAY);
        vm.prank(stranger);
        reactor.acceptRole(Role.Operator);
        vm.prank(operator);
        vm.expectRevert(IReactor.NotOperator.selector);
        reactor.settle(new SignedOrder[](0), new Fill[](0), new PoolFill[](0));
        vm.prank(stranger);
        assertEq(reactor.settle(new SignedOrder[](0), new Fill[](0), new PoolFill[](0)).length, 0, "settles");
    }

    function test_aNewProposalReplacesThePendingOne() public {
        reactor.proposeRole(Role.FeeRecipient, stranger);
        vm.warp(vm.getBlockTimestamp() + CHANGE_DELAY / 2);
        reactor.proposeRole(Role.FeeRecipient, maker);
        vm.warp(vm.getBlockTimestamp() + CHANGE_DELAY / 2);
        vm.prank(stranger);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(Role.FeeRecipient);
        vm.prank(maker);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(Role.FeeRecipient); // its own delay runs from its proposal
        vm.warp(vm.getBlockTimestamp() + CHANGE_DELAY / 2);
        vm.prank(maker);
        reactor.acceptRole(Role.FeeRecipient);
        assertEq(reactor.feeRecipient(), maker, "the later proposal");
    }

    /// The first pair factory is set at once (nothing routes to a pool before there is one); a
    /// later one waits the delay and is taken up by the owner.
    function test_theFirstPairFactoryIsSetAtOnceLaterOnesWait() public {
        address first = makeAddr("first factory");
        address second = makeAddr("second factory");
        reactor.proposeRole(Role.PairFactory, first);
        assertEq(reactor.pairFactory(), first, "the first at once");
        reactor.proposeRole(Role.PairFactory, second);
        assertEq(reactor.pairFactory(), first, "a later one waits");
        vm.warp(vm.getBlockTimestamp() + CHANGE_DELAY);
        vm.prank(second);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(Role.PairFactory);
        reactor.acceptRole(Role.PairFactory);
        assertEq(reactor.pairFactory(), second, "taken up by the owner");
    }

    /// A delay too long for the uint64 `readyAt` (a deployment meaning "never", say) must not wrap
    /// around to a time already past: the change then waits until the end of uint64 time.
    function testFuzz_aDelayBeyondUint64TimeStillWaits(uint256 delay, uint256 later) public {
        uint256 now_ = vm.getBlockTimestamp();
        delay = bound(delay, type(uint64).max - now_, type(uint256).max);
        later = bound(later, 0, type(uint64).max - 1 - now_);
        deployReactor(operator, fees, delay);
        reactor.proposeRole(Role.Operator, stranger);
        (, uint64 readyAt) = reactor.pendingChange(Role.Operator);
        assertEq(readyAt, type(uint64).max, "ready at the end of uint64 time");
        vm.warp(now_ + later);
        vm.prank(stranger);
        vm.expectRevert(IReactor.NoChangeReady.selector);
        reactor.acceptRole(Role.Operator);
        assertEq(reactor.operator(), operator, "the operator unchanged");
    }
}
