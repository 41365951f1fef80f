// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, SignedOrder} from "../src/lib/OrderTypes.sol";
import {FillBuilder, OrderBuilder, ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Party, Reject} from "./support/ReactorInterfaces.sol";

/// Amounts at the extremes: orders of up to MAX_AMOUNT (2^128 - 1) fill whole, with every product
/// of the rate and fee checks in range; larger ones, fills of nothing, and fills that would take
/// an order past its input or MAX_AMOUNT received are refused; the rate check is exact at any size.
contract ReactorAmountsTest is ReactorTest {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    function setUp() public {
        setUpBook();
    }

    function test_ordersOfMaxAmountFillWholeWithTheLargestFees() public {
        SignedOrder memory sell = signed(ask(MAX_AMOUNT, MAX_AMOUNT), MAKER_KEY);
        SignedOrder memory buy = signed(bid(MAX_AMOUNT, MAX_AMOUNT), TAKER_KEY);
        base.mint(maker, MAX_AMOUNT + 1);
        quote.mint(taker, MAX_AMOUNT + 1);
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(1, 0, 1, MAX_AMOUNT, MAX_AMOUNT).withFees(1_000, 3_000);
        fills[1] = FillBuilder.fill(2, 0, 1, 1, 1);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(both(sell, buy), fills);
        assertOutcome(outcomes[0], Reject.None, Party.None, "the whole of both orders");
        assertOutcome(outcomes[1], Reject.MakerOverfill, Party.Maker, "one unit more");
        assertEq(reactor.filled(digestOf(sell)), MAX_AMOUNT, "maker filled");
        assertEq(reactor.filled(digestOf(buy)), MAX_AMOUNT, "taker filled");
        assertEq(base.balanceOf(fees), MAX_AMOUNT * 3_000 / PIPS, "taker fee");
        assertEq(quote.balanceOf(fees), MAX_AMOUNT * 1_000 / PIPS, "maker fee");
        assertEq(base.balanceOf(taker), MAX_AMOUNT - MAX_AMOUNT * 3_000 / PIPS, "taker received");
        assertReactorEmpty(address(base));
        assertReactorEmpty(address(quote));
    }

    /// An order signed for more than MAX_AMOUNT in or out cannot trade at all: its signer's refusal.
    function testFuzz_anOrderAboveMaxAmountIsRefused(uint256 amount, bool input) public {
        amount = bound(amount, MAX_AMOUNT + 1, type(uint256).max);
        SignedOrder memory sell = signed(input ? ask(amount, 1) : ask(1, amount), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1, 1), TAKER_KEY);
        base.mint(maker, 1);
        quote.mint(taker, 1);
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 1, 1));
        assertOutcome(outcome, Reject.AmountTooLarge, Party.Maker, "order above MAX_AMOUNT");
        // The same as the taker.
        sell = signed(ask(1, 1), MAKER_KEY);
        buy = signed(input ? bid(1, amount) : bid(amount, 1), TAKER_KEY);
        outcome = settleOne(sell, buy, FillBuilder.fill(2, 0, 1, 1, 1));
        assertOutcome(outcome, Reject.AmountTooLarge, Party.Taker, "taker's order above MAX_AMOUNT");
    }

    function test_aFillOfNothingIsRefused() public {
        SignedOrder memory sell = signed(ask(10, 10), MAKER_KEY);
        SignedOrder memory buy = signed(bid(10, 10), TAKER_KEY);
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 0, 0).withFees(1_000, 3_000));
        assertOutcome(outcome, Reject.ZeroAmount, Party.None, "nothing for nothing");
        assertFalse(reactor.isFillSettled(1), "the fill id stays free");
    }

    /// Nothing for something breaks the rate of the side paying something (the operator's mistake).
    function testFuzz_nothingForSomethingBreaksThePayersRate(uint256 amount, bool makerPays) public {
        amount = bound(amount, 1, MAX_AMOUNT);
        SignedOrder memory sell = signed(ask(MAX_AMOUNT, 1), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1, MAX_AMOUNT), TAKER_KEY);
        base.mint(maker, amount);
        quote.mint(taker, amount);
        Fill memory fill = makerPays ? FillBuilder.fill(1, 0, 1, amount, 0) : FillBuilder.fill(1, 0, 1, 0, amount);
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, fill);
        if (makerPays) assertOutcome(outcome, Reject.MakerPrice, Party.None, "the maker paid for nothing");
        else assertOutcome(outcome, Reject.TakerPrice, Party.None, "the taker paid for nothing");
    }

    /// The least the maker's rate allows, ceil(paid * out / in), settles; one unit less does not,
    /// for any order size up to MAX_AMOUNT and any part of it.
    function testFuzz_theRateCheckIsExactAtAnySize(uint256 amountIn, uint256 amountOut, uint256 paid) public {
        amountIn = amountUpTo(amountIn, MAX_AMOUNT);
        amountOut = amountUpTo(amountOut, MAX_AMOUNT);
        paid = amountUpTo(paid, amountIn);
        uint256 least = (paid * amountOut + amountIn - 1) / amountIn;
        SignedOrder memory sell = signed(ask(amountIn, amountOut), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1, MAX_AMOUNT), TAKER_KEY);
        base.mint(maker, paid);
        quote.mint(taker, least);
        if (least != 0) {
            IReactor.RawOutcome memory short_ = settleOne(sell, buy, FillBuilder.fill(1, 0, 1, paid, least - 1));
            assertOutcome(short_, Reject.MakerPrice, Party.None, "a unit below the maker's rate");
        }
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(2, 0, 1, paid, least)), Reject.None, Party.None, "at the rate");
        (uint128 orderPaid, uint128 received) = reactor.progress(digestOf(sell));
        assertEq(orderPaid, paid, "paid");
        assertEq(received, least, "received");
        assertGe(uint256(received) * amountIn, amountOut * uint256(orderPaid), "received * in >= out * paid");
    }

    /// What an order receives over all its fills stays within MAX_AMOUNT, so every product fits.
    function test_anOrderNeverReceivesMoreThanMaxAmountInAll() public {
        SignedOrder memory sell = signed(ask(MAX_AMOUNT, 1), MAKER_KEY);
        SignedOrder memory sellMore = signed(ask(1, 1).withNonce(2), MAKER_KEY);
        SignedOrder memory buy = signed(bid(1, MAX_AMOUNT), TAKER_KEY);
        base.mint(maker, MAX_AMOUNT + 1);
        quote.mint(taker, 2);
        SignedOrder[] memory orders = new SignedOrder[](3);
        (orders[0], orders[1], orders[2]) = (sell, buy, sellMore);
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(1, 0, 1, MAX_AMOUNT, 1);
        fills[1] = FillBuilder.fill(2, 2, 1, 1, 1);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(orders, fills);
        assertOutcome(outcomes[0], Reject.None, Party.None, "MAX_AMOUNT received");
        assertOutcome(outcomes[1], Reject.AmountTooLarge, Party.None, "one unit more");
        (, uint128 received) = reactor.progress(digestOf(buy));
        assertEq(received, MAX_AMOUNT, "the taker's total");
    }
}
