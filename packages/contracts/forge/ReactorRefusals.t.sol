// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, SignedOrder} from "../src/lib/OrderTypes.sol";
import {FillBuilder, OrderBuilder, ReactorTest} from "./support/ReactorFixtures.sol";
import {IReactor, Party, Reject} from "./support/ReactorInterfaces.sol";
import {
    FalseReturningToken,
    FeeOnTransferToken,
    GasBurnerToken,
    IFreezingToken,
    ReentrantToken
} from "./support/Tokens.sol";

/// Whose order a failed transfer is blamed on: a payer that cannot pay (frozen, a token that says
/// false, keeps a fee or burns the gas) is blamed for its own order; a recipient that cannot receive
/// blocks only the order it receives for (MakerRefused, TakerRefused), and the other side settles
/// with someone else in the same batch; a fee recipient that cannot receive blames neither. A
/// token's hook never gets back into the reactor.
contract ReactorRefusalsTest is ReactorTest {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    uint256 internal constant HONEST_KEY = 0xCAFE;
    address internal honest = vm.addr(HONEST_KEY);
    address internal makerRecipient = makeAddr("maker's recipient");
    address internal takerRecipient = makeAddr("taker's recipient");
    IFreezingToken internal freezing;

    function setUp() public {
        setUpBook();
        freezing = IFreezingToken(deploy("FreezingToken.sol:FreezingToken", ""));
        freezing.initialize("FROZEN", "FROZEN", 6, address(this));
        // Everyone the suite pays FROZEN to associates with it first, as the ledger asks.
        address[3] memory recipients = [makerRecipient, takerRecipient, fees];
        for (uint256 i; i < recipients.length; ++i) associate(recipients[i]);
        for (uint256 i; i < 3; ++i) {
            address trader = i == 0 ? maker : i == 1 ? taker : honest;
            associate(trader);
            onboard(trader, address(freezing));
            onboard(trader, address(base));
            freezing.mint(trader, 1e12);
            base.mint(trader, 1e12);
        }
    }

    function associate(address account) internal {
        vm.prank(account);
        freezing.associate();
    }

    /// `swapper` (signing with `key`) sells `amount` of `tokenIn` for `amount` of `tokenOut`, paid to `recipient`.
    function order(uint256 key, address tokenIn, address tokenOut, address recipient)
        internal
        view
        returns (SignedOrder memory)
    {
        PartialFillLimitOrder memory built =
            OrderBuilder.sell(address(reactor), vm.addr(key), tokenIn, 1e9, tokenOut, 1e9).withRecipient(recipient);
        return signed(built, key);
    }

    function three(SignedOrder memory a, SignedOrder memory b, SignedOrder memory c)
        internal
        pure
        returns (SignedOrder[] memory orders)
    {
        orders = new SignedOrder[](3);
        (orders[0], orders[1], orders[2]) = (a, b, c);
    }

    /// The recipient of the side that receives FROZEN is frozen: that side's order is blamed, its
    /// counterparty's fill with an honest order in the same batch settles, and nothing moves for the
    /// refused fill.
    function testFuzz_aRecipientThatCannotReceiveIsBlamedOnItsOwnOrder(bool makerReceivesFrozen, uint256 amount)
        public
    {
        amount = bound(amount, 1, 1e9);
        address frozenOne = makerReceivesFrozen ? makerRecipient : takerRecipient;
        freezing.setFrozen(frozenOne, true);
        // The side that receives FROZEN pays BASE, and the other way round.
        (address makerIn, address makerOut) =
            makerReceivesFrozen ? (address(base), address(freezing)) : (address(freezing), address(base));
        SignedOrder memory sell = order(MAKER_KEY, makerIn, makerOut, makerRecipient);
        SignedOrder memory buy = order(TAKER_KEY, makerOut, makerIn, takerRecipient);
        // The honest order stands in for the side whose recipient is frozen.
        SignedOrder memory stand = makerReceivesFrozen
            ? order(HONEST_KEY, makerIn, makerOut, honest)
            : order(HONEST_KEY, makerOut, makerIn, honest);
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(1, 0, 1, amount, amount);
        fills[1] = makerReceivesFrozen ? FillBuilder.fill(2, 2, 1, amount, amount) : FillBuilder.fill(2, 0, 2, amount, amount);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(three(sell, buy, stand), fills);

        if (makerReceivesFrozen) assertOutcome(outcomes[0], Reject.MakerRefused, Party.Maker, "the maker's recipient");
        else assertOutcome(outcomes[0], Reject.TakerRefused, Party.Taker, "the taker's recipient");
        assertOutcome(outcomes[1], Reject.None, Party.None, "the counterparty settles with the honest order");
        assertEq(reactor.filled(digestOf(makerReceivesFrozen ? sell : buy)), 0, "the refused order did not fill");
        assertEq(freezing.balanceOf(frozenOne), 0, "nothing reached the frozen recipient");
        assertReactorEmpty(address(base));
        assertReactorEmpty(address(freezing));
    }

    /// A recipient that never associated with FROZEN cannot receive it (the ledger's
    /// TOKEN_NOT_ASSOCIATED_TO_ACCOUNT): that side's order is blamed and nothing moves.
    function testFuzz_aRecipientNotAssociatedIsBlamedOnItsOwnOrder(bool makerReceivesFrozen, uint256 amount) public {
        amount = bound(amount, 1, 1e9);
        address stranger = makeAddr("never associated");
        (address makerIn, address makerOut) =
            makerReceivesFrozen ? (address(base), address(freezing)) : (address(freezing), address(base));
        SignedOrder memory sell = order(MAKER_KEY, makerIn, makerOut, makerReceivesFrozen ? stranger : makerRecipient);
        SignedOrder memory buy = order(TAKER_KEY, makerOut, makerIn, makerReceivesFrozen ? takerRecipient : stranger);
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, FillBuilder.fill(1, 0, 1, amount, amount));
        if (makerReceivesFrozen) assertOutcome(outcome, Reject.MakerRefused, Party.Maker, "the maker's recipient");
        else assertOutcome(outcome, Reject.TakerRefused, Party.Taker, "the taker's recipient");
        assertEq(freezing.balanceOf(stranger), 0, "nothing reached the recipient");
        assertEq(base.balanceOf(makerRecipient) + base.balanceOf(takerRecipient), 0, "nothing moved");
        assertReactorEmpty(address(freezing));
    }

    /// A fee recipient that cannot receive a fee is no signer's fault; a fill without a fee in that
    /// token still settles.
    function test_aFeeRecipientThatCannotReceiveBlamesNeither() public {
        freezing.setFrozen(fees, true);
        SignedOrder memory sell = order(MAKER_KEY, address(base), address(freezing), maker);
        SignedOrder memory buy = order(TAKER_KEY, address(freezing), address(base), taker);
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(1, 0, 1, 1e6, 1e6).withFees(1_000, 0);
        fills[1] = FillBuilder.fill(2, 0, 1, 1e6, 1e6).withFees(0, 3_000);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(both(sell, buy), fills);
        assertOutcome(outcomes[0], Reject.FeeRefused, Party.None, "a FROZEN fee");
        assertOutcome(outcomes[1], Reject.None, Party.None, "a BASE fee");
    }

    /// A payer frozen in the token it pays cannot pay: its own order is blamed.
    function testFuzz_aPayerThatCannotPayIsBlamedOnItsOwnOrder(bool makerPaysFrozen) public {
        (address makerIn, address makerOut) =
            makerPaysFrozen ? (address(freezing), address(base)) : (address(base), address(freezing));
        freezing.setFrozen(makerPaysFrozen ? maker : taker, true);
        SignedOrder memory sell = order(MAKER_KEY, makerIn, makerOut, makerRecipient);
        SignedOrder memory buy = order(TAKER_KEY, makerOut, makerIn, takerRecipient);
        IReactor.RawOutcome memory outcome = settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 1e6, 1e6));
        if (makerPaysFrozen) assertOutcome(outcome, Reject.MakerTransfer, Party.Maker, "the maker cannot pay");
        else assertOutcome(outcome, Reject.TakerTransfer, Party.Taker, "the taker cannot pay");
        assertEq(base.balanceOf(makerRecipient) + base.balanceOf(takerRecipient), 0, "nothing moved");
    }

    /// A token that says false instead of paying fails its payer's order.
    function test_aTokenThatReturnsFalseIsBlamedOnItsPayer() public {
        FalseReturningToken falsy = new FalseReturningToken("FALSE", 18);
        falsy.mint(maker, 1e18);
        onboard(maker, address(falsy));
        onboard(taker, address(falsy));
        falsy.setRefuseAll(true);
        SignedOrder memory sell = order(MAKER_KEY, address(falsy), address(base), maker);
        SignedOrder memory buy = order(TAKER_KEY, address(base), address(falsy), taker);
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 1e6, 1e6)), Reject.MakerTransfer, Party.Maker, "false");
        falsy.setRefuseAll(false);
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(2, 0, 1, 1e6, 1e6)), Reject.None, Party.None, "true again");
    }

    /// A token that keeps part of a transfer delivers less than its payer signed to pay: the
    /// payer's fault. A transfer too small to bear the token's fee goes through.
    function test_aFeeOnTransferInputIsItsPayersFault() public {
        FeeOnTransferToken taxed = new FeeOnTransferToken("TAX", 18, 100); // 1 %
        taxed.mint(taker, 1e18);
        onboard(taker, address(taxed));
        onboard(maker, address(taxed));
        SignedOrder memory sell = order(MAKER_KEY, address(base), address(taxed), maker);
        SignedOrder memory buy = order(TAKER_KEY, address(taxed), address(base), taker);
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 1e6, 1e6)), Reject.TakerTransfer, Party.Taker, "taxed");
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(2, 0, 1, 99, 99)), Reject.None, Party.None, "too small to tax");
        assertReactorEmpty(address(taxed));
    }

    /// A token burning all the gas it is given fails its payer's fill, and the rest of the batch settles.
    function test_aTokenThatBurnsTheGasFailsOnlyItsFill() public {
        GasBurnerToken burner = new GasBurnerToken("BURN", 18);
        burner.mint(maker, 1e18);
        onboard(maker, address(burner));
        onboard(taker, address(burner));
        burner.setArmed(true);
        SignedOrder memory sell = order(MAKER_KEY, address(burner), address(base), maker);
        SignedOrder memory buy = order(TAKER_KEY, address(base), address(burner), taker);
        SignedOrder memory plain = order(HONEST_KEY, address(freezing), address(base), honest);
        SignedOrder memory buyPlain = order(TAKER_KEY, address(base), address(freezing), taker);
        SignedOrder[] memory orders = new SignedOrder[](4);
        (orders[0], orders[1], orders[2], orders[3]) = (sell, buy, plain, buyPlain);
        Fill[] memory fills = new Fill[](2);
        fills[0] = FillBuilder.fill(1, 0, 1, 1e6, 1e6);
        fills[1] = FillBuilder.fill(2, 2, 3, 1e6, 1e6);
        IReactor.RawOutcome[] memory outcomes = settleAsOperator(orders, fills);
        assertOutcome(outcomes[0], Reject.MakerTransfer, Party.Maker, "burnt");
        assertOutcome(outcomes[1], Reject.None, Party.None, "the next fill");
    }

    /// A token's hook called in the middle of a fill finds the reactor locked; the fill settles.
    function test_aTokenHookCannotReenterTheReactor() public {
        ReentrantToken hooked = new ReentrantToken("HOOK", 18);
        hooked.mint(maker, 1e18);
        onboard(maker, address(hooked));
        onboard(taker, address(hooked));
        SignedOrder memory sell = order(MAKER_KEY, address(hooked), address(base), maker);
        SignedOrder memory buy = order(TAKER_KEY, address(base), address(hooked), taker);
        bytes32[] memory hashes = new bytes32[](1);
        hashes[0] = digestOf(buy);
        hooked.setHook(address(reactor), abi.encodeCall(IReactor.cancel, (hashes)));
        assertOutcome(settleOne(sell, buy, FillBuilder.fill(1, 0, 1, 1e6, 1e6)), Reject.None, Party.None, "settled");
        assertEq(hooked.hookTarget(), address(0), "the hook ran");
        assertFalse(hooked.hookSucceeded(), "the reentrant call failed");
        bytes memory locked = abi.encodeWithSelector(IReactor.Locked.selector);
        assertTrue(keccak256(hooked.hookResult()) == keccak256(locked), "refused with Locked");
    }
}
