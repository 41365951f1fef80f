// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PartialFillLimitOrder} from "../../src/lib/OrderTypes.sol";
import {IMintable} from "../support/ReactorFixtures.sol";
import {IReactor} from "../support/ReactorInterfaces.sol";
import {Test} from "../support/Test.sol";
import {ReactorHandler} from "./ReactorHandler.sol";

/// The reactor's promises under any sequence of ReactorHandler's actions (book and pool fills,
/// cancellations, floors, expiries, hostile tokens):
/// - no order ever pays more than its signed input, and each receives at least its signed rate
///   over all its fills (received * input.amount >= output.amount * paid), in the reactor's own
///   record and in its events;
/// - fees stay within each order's signed caps, and its recipient holds exactly what it received
///   less its fees (tokens that keep no part of a transfer);
/// - the reactor holds no tokens after a settle, the fee recipient holds exactly the fees less the
///   rebates, and a fill id settles at most once;
/// - cancelled, floored, expired, forged and oversized orders never fill; no settle reverts, and
///   every refusal blames the party its reason names.
/// These hold for pool fills whether the reactor pays the stated amountOut or the pair's actual
/// output above it: they speak of the signed terms and of what the events and balances report.
contract ReactorInvariantTest is Test {
    uint256 internal constant PIPS = 1_000_000;

    ReactorHandler internal handler;
    IReactor internal reactor;

    function setUp() public {
        handler = new ReactorHandler();
        reactor = handler.reactorAddress();
        targetContract(address(handler));
        // Weighted by repetition: orders and settles most, each of the rest once.
        bytes4[] memory selectors = new bytes4[](20);
        for (uint256 i; i < 4; ++i) {
            selectors[i] = ReactorHandler.createOrder.selector;
            selectors[4 + i] = ReactorHandler.settleBook.selector;
        }
        selectors[8] = ReactorHandler.settlePool.selector;
        selectors[9] = ReactorHandler.settlePool.selector;
        selectors[10] = ReactorHandler.replayFill.selector;
        selectors[11] = ReactorHandler.cancel.selector;
        selectors[12] = ReactorHandler.cancelFor.selector;
        selectors[13] = ReactorHandler.raiseOwnFloor.selector;
        selectors[14] = ReactorHandler.raiseOperatorFloor.selector;
        selectors[15] = ReactorHandler.passTime.selector;
        selectors[16] = ReactorHandler.forgetExpired.selector;
        selectors[17] = ReactorHandler.setHostility.selector;
        selectors[18] = ReactorHandler.movePool.selector;
        selectors[19] = ReactorHandler.settleBook.selector;
        targetSelector(address(handler), selectors);
    }

    /// Nothing that must hold across a settle or an action broke (see ReactorHandler.execute).
    /// forge-config: default.invariant.runs = 64
    /// forge-config: default.invariant.depth = 64
    /// forge-config: long.invariant.runs = 128
    /// forge-config: long.invariant.depth = 128
    function invariant_noBreachAcrossAnAction() public view {
        string memory violation = handler.violation();
        assertTrue(bytes(violation).length == 0, violation);
    }

    /// Per order: paid within the signed input, received at least at the signed rate, fees within
    /// the signed caps, and its recipient's balance what it received less its fees.
    /// forge-config: default.invariant.runs = 64
    /// forge-config: default.invariant.depth = 64
    /// forge-config: long.invariant.runs = 128
    /// forge-config: long.invariant.depth = 128
    function invariant_everyOrderWithinItsSignedTerms() public view {
        uint256 count = handler.recordCount();
        for (uint256 i; i < count; ++i) {
            (PartialFillLimitOrder memory order, bytes32 hash) = handler.orderAt(i);
            ReactorHandler.Ghost memory ghost = handler.ghostOf(hash);
            string memory which = string.concat("order ", vm.toString(i));
            (uint256 paid, uint256 received) = reactor.progress(hash);
            if (ghost.forgotten) {
                assertEq(paid + received, 0, string.concat(which, ": forgotten, yet the reactor remembers it"));
            } else {
                assertEq(paid, ghost.paid, string.concat(which, ": paid, the reactor against its events"));
            }
            assertLe(ghost.paid, order.input.amount, string.concat(which, ": paid within the signed input"));
            assertLe(paid, order.input.amount, string.concat(which, ": paid within the signed input (reactor)"));
            assertGe(
                ghost.received * order.input.amount,
                order.output.amount * ghost.paid,
                string.concat(which, ": received at the signed rate")
            );
            assertGe(
                received * order.input.amount,
                order.output.amount * paid,
                string.concat(which, ": received at the signed rate (reactor)")
            );
            checkFees(order, ghost, which);
        }
    }

    function checkFees(PartialFillLimitOrder memory order, ReactorHandler.Ghost memory ghost, string memory which)
        internal
        view
    {
        assertLe(
            ghost.makerFees * PIPS,
            ghost.makerReceived * order.maxMakerFeePips,
            string.concat(which, ": maker fees within the signed cap")
        );
        assertLe(ghost.makerFees, ghost.makerReceived, string.concat(which, ": maker fees within what it received"));
        assertLe(
            ghost.takerFees * PIPS,
            ghost.takerReceived * order.maxTakerFeePips,
            string.concat(which, ": taker fees within the signed cap")
        );
        assertLe(ghost.takerFees, ghost.takerReceived, string.concat(which, ": taker fees within what it received"));
        uint256 net = ghost.received - ghost.makerFees - ghost.takerFees;
        uint256 held = IMintable(order.output.token).balanceOf(order.output.recipient);
        if (order.output.token == address(handler.taxed())) {
            assertLe(held, net, string.concat(which, ": its recipient holds no more than it received less fees"));
        } else {
            assertEq(held, net, string.concat(which, ": its recipient holds what it received less fees"));
        }
    }

    /// The reactor holds nothing; the fee recipient holds the fees less the rebates; every fill id
    /// the events settled is settled (and the handler saw none twice); the floors are the handler's.
    /// forge-config: default.invariant.runs = 64
    /// forge-config: default.invariant.depth = 64
    /// forge-config: long.invariant.runs = 128
    /// forge-config: long.invariant.depth = 128
    function invariant_reactorHoldsNothingAndSettlesEachIdOnce() public view {
        address[] memory tokens = handler.tokens();
        address fees = handler.feeRecipient();
        for (uint256 t; t < tokens.length; ++t) {
            IMintable token = IMintable(tokens[t]);
            assertEq(token.balanceOf(address(reactor)), 0, string.concat("the reactor holds ", vm.toString(tokens[t])));
            uint256 due = handler.feesPaid(tokens[t]) - handler.rebatesPaid(tokens[t]);
            if (tokens[t] == address(handler.taxed())) {
                assertLe(token.balanceOf(fees), due, "fees in the taxed token");
            } else {
                assertEq(token.balanceOf(fees), due, string.concat("fees less rebates in ", vm.toString(tokens[t])));
            }
        }
        uint64[] memory ids = handler.settledIdList();
        for (uint256 i; i < ids.length; ++i) {
            assertTrue(reactor.isFillSettled(ids[i]), string.concat("fill id ", vm.toString(ids[i]), " settled"));
        }
        address[4] memory actors = handler.actorList();
        for (uint256 i; i < actors.length; ++i) {
            assertEq(reactor.swapperFloor(actors[i]), handler.ownFloor(actors[i]), "the swapper's own floor");
            assertEq(reactor.operatorFloor(actors[i]), handler.operatorFloor(actors[i]), "the operator's floor");
            assertEq(reactor.nonceFloor(actors[i]), handler.nonceFloorOf(actors[i]), "the floor is the higher");
        }
    }
}
