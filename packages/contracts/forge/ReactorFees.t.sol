// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, SignedOrder} from "../src/lib/OrderTypes.sol";
import {FillBuilder, OrderBuilder, ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Party, Reject} from "./support/ReactorInterfaces.sol";

/// Fees are pips of what each side receives, rounded down, so never above the rate the operator
/// stated nor the cap the order signed, not even on a fill of a few units; a maker rebate comes
/// out of the taker's fee, never above the fill's share of it, and the maker pays that much less.
contract ReactorFeesTest is ReactorTest {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    function setUp() public {
        setUpBook();
    }

    /// Orders at rates any positive fill satisfies (all of one side for a single unit of the other),
    /// so only the fees decide the outcome.
    function anyPriceOrders(uint32 makerCap, uint32 takerCap)
        internal
        view
        returns (SignedOrder memory sell, SignedOrder memory buy)
    {
        sell = signed(ask(MAX_AMOUNT, 1).withFeeCaps(0, makerCap), MAKER_KEY);
        buy = signed(bid(1, MAX_AMOUNT).withFeeCaps(takerCap, 0), TAKER_KEY);
    }

    function fund(uint256 baseAmount, uint256 quoteAmount) internal {
        base.mint(maker, baseAmount);
        quote.mint(taker, quoteAmount);
    }

    /// `fee` is `amount` at `pips`, rounded down: fee <= amount * pips / 1e6 < fee + 1.
    function assertRoundedDown(uint256 fee, uint256 amount, uint256 pips, string memory message) internal pure {
        assertLe(fee * PIPS, amount * pips, string.concat(message, ": not above the rate"));
        assertLt(amount * pips, (fee + 1) * PIPS, string.concat(message, ": rounded down by less than a unit"));
    }

    function testFuzz_feesRoundDownAndStayWithinTheSignedCaps(
        uint256 makerAmount,
        uint256 takerAmount,
        uint32 makerCap,
        uint32 takerCap,
        uint256 makerPips,
        uint256 takerPips
    ) public {
        makerAmount = amountUpTo(makerAmount, MAX_AMOUNT);
        takerAmount = amountUpTo(takerAmount, MAX_AMOUNT);
        makerPips = bound(makerPips, 0, makerCap < PIPS ? makerCap : PIPS);
        takerPips = bound(takerPips, 0, takerCap < PIPS ? takerCap : PIPS);
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(makerCap, takerCap);
        fund(makerAmount, takerAmount);

        Fill memory fill = FillBuilder.fill(1, 0, 1, makerAmount, takerAmount);
        fill.withFees(pips(makerPips), pips(takerPips));
        assertOutcome(settleOne(sell, buy, fill), Reject.None, Party.None, "settled");

        uint256 makerFee = quote.balanceOf(fees);
        uint256 takerFee = base.balanceOf(fees);
        assertRoundedDown(makerFee, takerAmount, makerPips, "maker fee");
        assertRoundedDown(takerFee, makerAmount, takerPips, "taker fee");
        assertLe(makerFee * PIPS, takerAmount * makerCap, "maker fee within the maker's signed cap");
        assertLe(takerFee * PIPS, makerAmount * takerCap, "taker fee within the taker's signed cap");
        assertEq(quote.balanceOf(maker), takerAmount - makerFee, "the maker receives the rest");
        assertEq(base.balanceOf(taker), makerAmount - takerFee, "the taker receives the rest");
        assertReactorEmpty(address(base));
        assertReactorEmpty(address(quote));
    }

    /// 3,000 pips of 333 units is 0.999 of a unit: nothing. Of 334, one unit. All of one unit at
    /// a million pips (a cap the order signed) is that unit.
    function test_dustFillsPayTheFeeRoundedDown() public {
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(1_000, WHOLE);
        fund(1_000, 1_001);
        Fill[] memory fills = new Fill[](3);
        fills[0] = FillBuilder.fill(1, 0, 1, 333, 1).withFees(0, 3_000);
        fills[1] = FillBuilder.fill(2, 0, 1, 334, 1).withFees(0, 3_000);
        fills[2] = FillBuilder.fill(3, 0, 1, 1, 999).withFees(1_000, WHOLE);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(both(sell, buy), fills);
        for (uint256 i; i < 3; ++i) assertOutcome(outcomes[i], Reject.None, Party.None, "settled");
        assertEq(base.balanceOf(fees), 0 + 1 + 1, "taker fees: 0.999, 1.002 and 1 unit");
        assertEq(quote.balanceOf(fees), 0, "maker fee: 0.999 of a unit");
        assertEq(base.balanceOf(taker), 333 + 333 + 0, "the taker's BASE");
    }

    function testFuzz_aFeeAboveTheSignedCapIsTheSignersRefusal(uint32 cap, uint256 feePips, bool makerSide) public {
        cap = pips(bound(cap, 0, PIPS - 1));
        feePips = bound(feePips, uint256(cap) + 1, PIPS);
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(cap, cap);
        fund(1e18, 1e18);
        Fill memory fill = FillBuilder.fill(1, 0, 1, 1e18, 1e18);
        if (makerSide) fill.withFees(pips(feePips), 0);
        else fill.withFees(0, pips(feePips));
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, fill);
        if (makerSide) assertOutcome(outcome, Reject.MakerFeeCap, Party.Maker, "maker fee above its cap");
        else assertOutcome(outcome, Reject.TakerFeeCap, Party.Taker, "taker fee above its cap");
        assertEq(base.balanceOf(maker), 1e18, "nothing moved");
        assertFalse(reactor.isFillSettled(1), "the fill id stays free");
    }

    /// A cap the order signed above a million pips still allows no fee above the whole amount.
    function testFuzz_aFeeAboveTheWholeAmountIsRefusedWhateverTheCap(uint256 feePips) public {
        feePips = bound(feePips, PIPS + 1, type(uint32).max);
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(type(uint32).max, type(uint32).max);
        fund(1e18, 1e18);
        Fill memory fill = FillBuilder.fill(1, 0, 1, 1e18, 1e18);
        assertOutcome(settleOne(sell, buy, fill.withFees(pips(feePips), 0)), Reject.MakerFeeCap, Party.Maker, "maker");
        fill = FillBuilder.fill(2, 0, 1, 1e18, 1e18);
        assertOutcome(settleOne(sell, buy, fill.withFees(0, pips(feePips))), Reject.TakerFeeCap, Party.Taker, "taker");
    }

    function testFuzz_aRebateNeverExceedsItsShareOfTheTakerFeeAndTheMakerPaysThatMuchLess(
        uint256 makerAmount,
        uint256 takerPips,
        uint256 rebatePips,
        uint256 capPips
    ) public {
        makerAmount = amountUpTo(makerAmount, MAX_AMOUNT);
        takerPips = bound(takerPips, 0, PIPS);
        rebatePips = bound(rebatePips, 1, PIPS);
        capPips = bound(capPips, 0, PIPS);
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(0, WHOLE);
        fund(makerAmount, 1);
        Fill memory fill = FillBuilder.fill(1, 0, 1, makerAmount, 1).withFees(0, pips(takerPips));
        fill.withRebate(pips(rebatePips), pips(capPips));
        assertOutcome(settleOne(sell, buy, fill), Reject.None, Party.None, "settled");

        uint256 takerFee = makerAmount * takerPips / PIPS;
        // What the maker kept of the BASE it was funded with is its rebate: it paid that much less.
        uint256 rebate = base.balanceOf(maker);
        assertLe(rebate * PIPS, takerFee * capPips, "rebate within its share of the taker fee");
        assertLe(rebate * PIPS, makerAmount * rebatePips, "rebate within its rate");
        uint256 byRate = makerAmount * rebatePips / PIPS;
        uint256 byCap = takerFee * capPips / PIPS;
        assertEq(rebate, byRate < byCap ? byRate : byCap, "the rebate is its rate, capped");
        assertEq(base.balanceOf(fees), takerFee - rebate, "the fee recipient keeps the rest of the taker fee");
        assertEq(base.balanceOf(taker), makerAmount - takerFee, "the taker pays its whole fee");
        assertReactorEmpty(address(base));
    }

    /// A rebate with a maker fee, a cap above the whole taker fee, or a rebate rate above a million
    /// pips is the operator's mistake.
    function test_aMalformedRebateIsTheOperatorsMistake() public {
        (SignedOrder memory sell, SignedOrder memory buy) = anyPriceOrders(1_000, 3_000);
        fund(1e8, 1e8);
        Fill[] memory fills = new Fill[](3);
        fills[0] = FillBuilder.fill(1, 0, 1, 1e8, 1).withFees(1, 3_000).withRebate(1, 0);
        fills[1] = FillBuilder.fill(2, 0, 1, 1e8, 1).withFees(0, 3_000).withRebate(1, pips(PIPS + 1));
        fills[2] = FillBuilder.fill(3, 0, 1, 1e8, 1).withFees(0, 3_000).withRebate(pips(PIPS + 1), 0);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(both(sell, buy), fills);
        for (uint256 i; i < 3; ++i) assertOutcome(outcomes[i], Reject.BadRebate, Party.None, "bad rebate");
        assertEq(base.balanceOf(maker), 1e8, "nothing moved");
    }
}
