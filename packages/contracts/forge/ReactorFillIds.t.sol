// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, SignedOrder} from "../src/lib/OrderTypes.sol";
import {FillBuilder, OrderBuilder, ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Party, Reject} from "./support/ReactorInterfaces.sol";

/// A fill id settles once, in its batch or any later one, whatever its value; a rejected fill leaves
/// its id free; marking an id touches no other (256 ids share a storage word).
contract ReactorFillIdsTest is ReactorTest {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    SignedOrder internal sell;
    SignedOrder internal buy;

    function setUp() public {
        setUpBook();
        base.mint(maker, 1e30);
        quote.mint(taker, 1e30);
        sell = signed(ask(1e20, 1e20), MAKER_KEY);
        buy = signed(bid(1e20, 1e20), TAKER_KEY);
    }

    function testFuzz_aFillIdSettlesOnce(uint64 fillId) public {
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(fillId, 0, 1, 1, 1);
        fills[1] = FillBuilder.fill(fillId, 0, 1, 2, 2);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(both(sell, buy), fills);
        assertOutcome(outcomes[0], Reject.None, Party.None, "first");
        assertOutcome(outcomes[1], Reject.AlreadySettled, Party.None, "again in its batch");
        assertTrue(reactor.isFillSettled(fillId), "settled");
        assertOutcome(settleOne(sell, buy, fills[1]), Reject.AlreadySettled, Party.None, "again later");
        assertEq(reactor.filled(digestOf(sell)), 1, "filled once");
        // Its neighbours, in its storage word and the next, are still free.
        if (fillId != type(uint64).max) assertFalse(reactor.isFillSettled(fillId + 1), "the next id");
        if (fillId != 0) assertFalse(reactor.isFillSettled(fillId - 1), "the previous id");
        assertFalse(reactor.isFillSettled(fillId ^ 0x100), "the same bit of another word");
    }

    /// A fill rejected at any stage leaves no trace: its id stays free for a later fill.
    function test_aRejectedFillLeavesItsIdFree() public {
        Fill memory overpriced = FillBuilder.fill(7, 0, 1, 1, 2); // two QUOTE for one BASE: above the taker's rate
        assertOutcome(settleOne(sell, buy, overpriced), Reject.TakerPrice, Party.None, "rejected");
        assertFalse(reactor.isFillSettled(7), "free");
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(7, 0, 1, 1, 1)), Reject.None, Party.None, "used later");
        assertTrue(reactor.isFillSettled(7), "now settled");
    }
}
