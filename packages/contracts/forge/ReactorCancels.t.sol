// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, SignedOrder} from "../src/lib/OrderTypes.sol";
import {FillBuilder, OrderBuilder, ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Party, Reject} from "./support/ReactorInterfaces.sol";

/// What voids an order: a cancellation by its swapper or the operator (in the swapper's own
/// namespace only), a nonce floor (the swapper's own or the operator's, whichever is higher: the
/// operator's never stops the swapper raising its own), and its deadline.
contract ReactorCancelsTest is ReactorTest {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    uint64 internal nextFillId = 1;

    function setUp() public {
        setUpBook();
        base.mint(maker, 1e30);
        quote.mint(taker, 1e30);
    }

    /// Settles one fill of 1 BASE for 1 QUOTE between `sell` and `buy` (fresh fill id).
    function trade(SignedOrder memory sell, SignedOrder memory buy) internal returns (IReactor.RawOutcome memory) {
        return settleOne(sell, buy, FillBuilder.fill(nextFillId++, 0, 1, 1, 1));
    }

    function one(bytes32 hash) internal pure returns (bytes32[] memory hashes) {
        hashes = new bytes32[](1);
        hashes[0] = hash;
    }

    function testFuzz_theOperatorsFloorNeverDisablesTheSwappersOwnCancelAll(uint256 operatorFloor, uint256 ownFloor)
        public
    {
        ownFloor = bound(ownFloor, 1, type(uint256).max);
        vm.prank(operator);
        reactor.cancelAllFor(maker, operatorFloor);
        vm.prank(maker);
        reactor.cancelAll(ownFloor);
        assertEq(reactor.swapperFloor(maker), ownFloor, "the swapper's own floor");
        assertEq(reactor.operatorFloor(maker), operatorFloor, "the operator's floor");
        uint256 highest = ownFloor > operatorFloor ? ownFloor : operatorFloor;
        assertEq(reactor.nonceFloor(maker), highest, "the floor is the higher of the two");
        // Nor does the operator's floor, raised after, lower the swapper's.
        vm.prank(operator);
        reactor.cancelAllFor(maker, type(uint256).max);
        assertEq(reactor.swapperFloor(maker), ownFloor, "the swapper's floor after the operator's");
    }

    /// An order at the floor trades; one below it does not, whoever raised the floor.
    function testFuzz_ordersBelowEitherFloorNeverFill(uint256 floor, uint256 nonce, bool byOperator) public {
        floor = bound(floor, 1, type(uint256).max);
        nonce = bound(nonce, 0, floor - 1);
        if (byOperator) vm.prank(operator);
        else vm.prank(maker);
        if (byOperator) reactor.cancelAllFor(maker, floor);
        else reactor.cancelAll(floor);
        SignedOrder memory buy = signed(bid(1e8, 1e8), TAKER_KEY);
        SignedOrder memory below = signed(ask(1e8, 1e8).withNonce(nonce), MAKER_KEY);
        SignedOrder memory at = signed(ask(1e8, 1e8).withNonce(floor), MAKER_KEY);
        assertOutcome(trade(below, buy), Reject.NonceBelowFloor, Party.Maker, "below the floor");
        assertOutcome(trade(at, buy), Reject.None, Party.None, "at the floor");
    }

    /// Floors only rise: a lower one, from the swapper or the operator, changes nothing.
    function testFuzz_floorsOnlyRise(uint256 first, uint256 second) public {
        vm.startPrank(operator);
        reactor.cancelAllFor(maker, first);
        reactor.cancelAllFor(maker, second);
        vm.stopPrank();
        vm.startPrank(maker);
        reactor.cancelAll(second);
        reactor.cancelAll(first);
        vm.stopPrank();
        uint256 higher = first > second ? first : second;
        assertEq(reactor.operatorFloor(maker), higher, "operator's floor");
        assertEq(reactor.swapperFloor(maker), higher, "swapper's floor");
        assertEq(reactor.nonceFloor(maker), higher, "floor");
    }

    function test_onlyTheOperatorSetsAFloorOrCancelsForAnother() public {
        vm.prank(taker);
        vm.expectRevert(IReactor.NotOperator.selector);
        reactor.cancelAllFor(maker, 5);
        vm.prank(taker);
        vm.expectRevert(IReactor.NotOperator.selector);
        reactor.cancelFor(maker, one(bytes32(uint256(1))));
    }

    /// Cancelling another's order hash touches only the canceller's own namespace; the swapper's
    /// and the operator's cancellations void the order for good.
    function test_aCancellationVoidsTheOrderOnlyInItsSwappersName() public {
        SignedOrder memory sell = signed(ask(1e8, 1e8), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1e8, 1e8), TAKER_KEY);
        bytes32 sellHash = digestOf(sell);
        vm.prank(taker);
        reactor.cancel(one(sellHash));
        assertOutcome(trade(sell, buy), Reject.None, Party.None, "cancelled by a stranger");
        vm.prank(maker);
        reactor.cancel(one(sellHash));
        assertOutcome(trade(sell, buy), Reject.Cancelled, Party.Maker, "cancelled by its swapper");

        SignedOrder memory other = signed(ask(1e8, 1e8).withNonce(2), MAKER_KEY);
        bytes32 buyHash = digestOf(buy);
        vm.prank(operator);
        reactor.cancelFor(taker, one(buyHash));
        assertOutcome(trade(other, buy), Reject.Cancelled, Party.Taker, "cancelled by the operator");
        assertTrue(reactor.cancelled(taker, buyHash), "recorded under the swapper");
    }

    /// An order trades up to and including its deadline, never after (deadlines within the Permit2
    /// allowances' uint48 expiry).
    function testFuzz_anExpiredOrderNeverFills(uint256 deadline, uint256 late) public {
        deadline = bound(deadline, vm.getBlockTimestamp(), type(uint40).max);
        late = bound(late, 1, 1e10);
        SignedOrder memory sell = signed(ask(1e8, 1e8).withDeadline(deadline), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1e8, 1e8).withDeadline(type(uint64).max + late), TAKER_KEY);
        vm.warp(deadline);
        assertOutcome(trade(sell, buy), Reject.None, Party.None, "at its deadline");
        vm.warp(deadline + late);
        assertOutcome(trade(sell, buy), Reject.Expired, Party.Maker, "past its deadline");
    }

    /// forgetExpired frees an expired order's progress and cancellation, and nothing of a live one;
    /// what it forgot never trades again.
    function test_forgetExpiredFreesOnlyExpiredOrders() public {
        uint256 soon = vm.getBlockTimestamp() + 10;
        SignedOrder memory sell = signed(ask(1e8, 1e8).withDeadline(soon), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1e8, 1e8), TAKER_KEY);
        assertOutcome(trade(sell, buy), Reject.None, Party.None, "live");
        vm.prank(maker);
        reactor.cancel(one(digestOf(sell)));
        PartialFillLimitOrder[] memory orders = new PartialFillLimitOrder[](2);
        (orders[0], orders[1]) = (sell.order, buy.order);
        reactor.forgetExpired(orders);
        assertEq(reactor.filled(digestOf(sell)), 1, "live: remembered");
        vm.warp(soon + 1);
        reactor.forgetExpired(orders);
        assertEq(reactor.filled(digestOf(sell)), 0, "expired: forgotten");
        assertFalse(reactor.cancelled(maker, digestOf(sell)), "its cancellation forgotten");
        assertEq(reactor.filled(digestOf(buy)), 1, "the live order's progress kept");
        assertOutcome(trade(sell, buy), Reject.Expired, Party.Maker, "forgotten, still expired");
    }
}
