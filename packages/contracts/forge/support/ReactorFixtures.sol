// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAllowanceTransfer} from "../../src/interfaces/IAllowanceTransfer.sol";
import {
    Fill,
    OrderInfo,
    OutputToken,
    PartialFillInputToken,
    PartialFillLimitOrder,
    PoolFill,
    SignedOrder
} from "../../src/lib/OrderTypes.sol";
import {IReactor, Party, Reject} from "./ReactorInterfaces.sol";
import {Cheats, Test} from "./Test.sol";
import {PlainToken} from "./Tokens.sol";

/// Orders for the suites: `sell` gives a valid order (nonce 1, an hour to live, paying out to the
/// swapper, fee caps of 3,000 taker and 1,000 maker pips, as test/support/orders.ts has them); each
/// `with...` changes one thing and returns the same order, so a test names only what it is about.
library OrderBuilder {
    function sell(
        address reactor,
        address swapper,
        address tokenIn,
        uint256 amountIn,
        address tokenOut,
        uint256 amountOut
    ) internal view returns (PartialFillLimitOrder memory order) {
        order.info = OrderInfo(reactor, swapper, 1, block.timestamp + 1 hours, address(0), "");
        order.input = PartialFillInputToken(tokenIn, amountIn);
        order.output = OutputToken(tokenOut, amountOut, swapper);
        order.maxTakerFeePips = 3_000;
        order.maxMakerFeePips = 1_000;
    }

    function withNonce(PartialFillLimitOrder memory order, uint256 nonce)
        internal
        pure
        returns (PartialFillLimitOrder memory)
    {
        order.info.nonce = nonce;
        return order;
    }

    function withDeadline(PartialFillLimitOrder memory order, uint256 deadline)
        internal
        pure
        returns (PartialFillLimitOrder memory)
    {
        order.info.deadline = deadline;
        return order;
    }

    function withReactor(PartialFillLimitOrder memory order, address reactor)
        internal
        pure
        returns (PartialFillLimitOrder memory)
    {
        order.info.reactor = reactor;
        return order;
    }

    function withRecipient(PartialFillLimitOrder memory order, address recipient)
        internal
        pure
        returns (PartialFillLimitOrder memory)
    {
        order.output.recipient = recipient;
        return order;
    }

    function withFeeCaps(PartialFillLimitOrder memory order, uint32 maxTakerFeePips, uint32 maxMakerFeePips)
        internal
        pure
        returns (PartialFillLimitOrder memory)
    {
        order.maxTakerFeePips = maxTakerFeePips;
        order.maxMakerFeePips = maxMakerFeePips;
        return order;
    }

    function withMakerOnly(PartialFillLimitOrder memory order) internal pure returns (PartialFillLimitOrder memory) {
        order.makerOnly = true;
        return order;
    }

    function withTakerOnce(PartialFillLimitOrder memory order) internal pure returns (PartialFillLimitOrder memory) {
        order.takerOnce = true;
        return order;
    }
}

/// Fills for the suites: `fill` gives a fill without fees; the `with...` setters add them.
library FillBuilder {
    function fill(uint64 fillId, uint16 maker, uint16 taker, uint256 makerAmount, uint256 takerAmount)
        internal
        pure
        returns (Fill memory result)
    {
        result.fillId = fillId;
        result.maker = maker;
        result.taker = taker;
        result.makerAmount = makerAmount;
        result.takerAmount = takerAmount;
    }

    function withFees(Fill memory self, uint32 makerFeePips, uint32 takerFeePips) internal pure returns (Fill memory) {
        self.makerFeePips = makerFeePips;
        self.takerFeePips = takerFeePips;
        return self;
    }

    function withRebate(Fill memory self, uint32 makerRebatePips, uint32 rebateCapPips) internal pure returns (Fill memory) {
        self.makerRebatePips = makerRebatePips;
        self.rebateCapPips = rebateCapPips;
        return self;
    }
}

/// The token calls the fixtures make, whatever the token (PlainToken and its hostile kin,
/// FreezingToken).
interface IMintable {
    function mint(address to, uint256 amount) external;
    function approve(address spender, uint256 amount) external returns (bool);
    function balanceOf(address account) external view returns (uint256);
}

/// A reactor pulling through its own Permit2, and what every suite of it needs: swappers onboarded
/// the way the service's clients onboard (an ERC-20 approval of Permit2, a Permit2 allowance for
/// the reactor), orders signed with vm.sign against the reactor's own `orderDigest`.
abstract contract ReactorWorld is Cheats {
    uint256 internal constant PIPS = 1_000_000;
    /// A fee, cap or rebate of the whole amount, as a uint32 pips field.
    uint32 internal constant WHOLE = 1_000_000;
    uint256 internal constant MAX_AMOUNT = type(uint128).max;
    uint256 internal constant CHANGE_DELAY = 1 days;

    IReactor internal reactor;
    IAllowanceTransfer internal permit2;

    /// Deploys Permit2 and a reactor whose owner is this contract.
    function deployReactor(address operator, address feeRecipient, uint256 changeDelay) internal {
        permit2 = IAllowanceTransfer(deploy("Permit2.sol:Permit2", ""));
        reactor = IReactor(
            deploy(
                "PartialFillLimitOrderReactor.sol:PartialFillLimitOrderReactor",
                abi.encode("PartialFillLimitOrderReactor", "1", address(permit2), changeDelay, operator, feeRecipient)
            )
        );
        vm.label(address(reactor), "reactor");
        vm.label(address(permit2), "permit2");
    }

    /// Lets the reactor pull `token` from `swapper` without limit or expiry.
    function onboard(address swapper, address token) internal {
        vm.startPrank(swapper);
        IMintable(token).approve(address(permit2), type(uint256).max);
        permit2.approve(token, address(reactor), type(uint160).max, type(uint48).max);
        vm.stopPrank();
    }

    /// `order` with the wire signature of `key`: mode byte 0x00, then r, s, v.
    function signed(PartialFillLimitOrder memory order, uint256 key) internal view returns (SignedOrder memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, reactor.orderDigest(order));
        return SignedOrder(order, abi.encodePacked(bytes1(0x00), r, s, v));
    }

    /// `value` as a uint32 pips field of an order or a fill.
    function pips(uint256 value) internal pure returns (uint32) {
        require(value <= type(uint32).max, "pips: above uint32");
        // The require above keeps the value within uint32.
        // forge-lint: disable-next-line(unsafe-typecast)
        return uint32(value);
    }

    function digestOf(SignedOrder memory order) internal view returns (bytes32) {
        return reactor.orderDigest(order.order);
    }
}

/// A ReactorWorld for unit tests: a maker and a taker trading BASE against QUOTE (plain tokens),
/// settling as the operator, and outcome assertions.
abstract contract ReactorTest is Test, ReactorWorld {
    /// Deterministic test keys, nothing else.
    uint256 internal constant MAKER_KEY = 0xA11CE;
    uint256 internal constant TAKER_KEY = 0xB0B;

    address internal operator = makeAddr("operator");
    address internal fees = makeAddr("fees");
    address internal maker = vm.addr(MAKER_KEY);
    address internal taker = vm.addr(TAKER_KEY);
    PlainToken internal base;
    PlainToken internal quote;

    /// The reactor (owned by this contract), BASE and QUOTE, and both traders onboarded for both.
    function setUpBook() internal {
        deployReactor(operator, fees, CHANGE_DELAY);
        base = new PlainToken("BASE", 8);
        quote = new PlainToken("QUOTE", 6);
        vm.label(maker, "maker");
        vm.label(taker, "taker");
        for (uint256 i; i < 2; ++i) {
            address trader = i == 0 ? maker : taker;
            onboard(trader, address(base));
            onboard(trader, address(quote));
        }
    }

    /// The maker's sell of `baseAmount` BASE for at least `quoteAmount` QUOTE.
    function ask(uint256 baseAmount, uint256 quoteAmount) internal view returns (PartialFillLimitOrder memory) {
        return OrderBuilder.sell(address(reactor), maker, address(base), baseAmount, address(quote), quoteAmount);
    }

    /// The taker's buy of at least `baseAmount` BASE for `quoteAmount` QUOTE.
    function bid(uint256 baseAmount, uint256 quoteAmount) internal view returns (PartialFillLimitOrder memory) {
        return OrderBuilder.sell(address(reactor), taker, address(quote), quoteAmount, address(base), baseAmount);
    }

    function settleAsOperator(SignedOrder[] memory orders, Fill[] memory fills)
        internal
        returns (IReactor.RawOutcome[] memory)
    {
        vm.prank(operator);
        return reactor.settle(orders, fills, new PoolFill[](0));
    }

    /// Settles one fill of `maker` (index 0) against `taker` (index 1).
    function settleOne(SignedOrder memory makerOrder, SignedOrder memory takerOrder, Fill memory fill_)
        internal
        returns (IReactor.RawOutcome memory)
    {
        return settleAsOperator(both(makerOrder, takerOrder), only(fill_))[0];
    }

    function both(SignedOrder memory first, SignedOrder memory second) internal pure returns (SignedOrder[] memory orders) {
        orders = new SignedOrder[](2);
        (orders[0], orders[1]) = (first, second);
    }

    function only(Fill memory fill_) internal pure returns (Fill[] memory fills) {
        fills = new Fill[](1);
        fills[0] = fill_;
    }

    function assertOutcome(IReactor.RawOutcome memory outcome, Reject reason, Party party, string memory message)
        internal
        pure
    {
        assertEq(outcome.reason, uint8(reason), string.concat(message, ": reason"));
        assertEq(outcome.party, uint8(party), string.concat(message, ": party"));
    }

    /// The reactor holds none of `token` (it holds nothing between fills).
    function assertReactorEmpty(address token) internal view {
        assertEq(IMintable(token).balanceOf(address(reactor)), 0, "the reactor's balance");
    }
}
