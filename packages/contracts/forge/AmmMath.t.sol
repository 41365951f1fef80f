// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "../src/amm/AmmMath.sol";
import {IAmmMath} from "./support/AmmInterfaces.sol";
import {Test} from "./support/Test.sol";

/// AmmMath at its extremes: floor(sqrt) over all of uint256, quotes that never let a swap break
/// k and are the best (amountOut) or least (amountIn) that keep it, and the refusals. Called
/// through AmmMathHarness as the via-IR build compiles it, the code the pair and router run.
contract AmmMathTest is Test {
    uint256 internal constant MAX112 = type(uint112).max;

    IAmmMath internal math;

    function setUp() public {
        math = IAmmMath(deploy("AmmMathHarness.sol:AmmMathHarness", ""));
    }

    /// The pair's check for a swap paying `paid` in for `out` from reserves (in, out): the reserves
    /// after, less 0.3 % of the input, keep k (all in thousandths).
    function keepsK(uint256 paid, uint256 out, uint256 reserveIn, uint256 reserveOut) internal pure returns (bool) {
        uint256 adjustedIn = (reserveIn + paid) * 1000 - paid * 3;
        uint256 adjustedOut = (reserveOut - out) * 1000;
        return adjustedIn * adjustedOut >= reserveIn * reserveOut * 1_000_000;
    }

    function assertIsFloorSqrt(uint256 x) internal view {
        uint256 root = math.sqrt(x);
        assertLe(root, type(uint128).max, "root fits 128 bits");
        assertLe(root * root, x, "root^2 <= x");
        if (root < type(uint128).max) assertGt((root + 1) * (root + 1), x, "(root + 1)^2 > x");
    }

    function test_sqrtAtTheEdges() public view {
        assertEq(math.sqrt(0), 0, "sqrt(0)");
        assertEq(math.sqrt(1), 1, "sqrt(1)");
        assertEq(math.sqrt(3), 1, "sqrt(3)");
        assertEq(math.sqrt(4), 2, "sqrt(4)");
        assertEq(math.sqrt(type(uint256).max), type(uint128).max, "sqrt(2^256 - 1)");
        uint256 top = type(uint128).max;
        assertEq(math.sqrt(top * top), top, "sqrt((2^128 - 1)^2)");
        assertEq(math.sqrt(top * top - 1), top - 1, "sqrt((2^128 - 1)^2 - 1)");
        for (uint256 bit; bit < 256; ++bit) {
            // 2^bit: the literal 1 shifted, as meant.
            // forge-lint: disable-next-line(incorrect-shift)
            uint256 power = 1 << bit;
            assertIsFloorSqrt(power);
            assertIsFloorSqrt(power - 1);
            assertIsFloorSqrt(power + 1);
        }
    }

    function testFuzz_sqrtIsTheFloorRoot(uint256 x) public view {
        assertIsFloorSqrt(x);
    }

    function testFuzz_sqrtOfASquareIsExact(uint128 root) public view {
        assertEq(math.sqrt(uint256(root) * root), root, "sqrt(root^2)");
    }

    /// amountOut keeps k and is the most that does, for any reserves a pair can hold.
    function testFuzz_amountOutKeepsKAndIsTheMost(uint256 paid, uint256 reserveIn, uint256 reserveOut) public view {
        reserveIn = bound(reserveIn, 1, MAX112 - 1);
        reserveOut = bound(reserveOut, 1, MAX112);
        paid = bound(paid, 1, MAX112 - reserveIn); // the balance after must fit the reserve too
        uint256 out = math.amountOut(paid, reserveIn, reserveOut);
        assertLt(out, reserveOut, "out < reserveOut");
        assertTrue(keepsK(paid, out, reserveIn, reserveOut), "amountOut keeps k");
        if (out + 1 < reserveOut) assertFalse(keepsK(paid, out + 1, reserveIn, reserveOut), "one unit more breaks k");
    }

    /// amountIn buys at least what was asked and keeps k. It is floor(exact) + 1, so it is the
    /// least input except when the exact price is a whole number: then it asks one unit more than
    /// needed (Uniswap V2's formula does the same), never two.
    function testFuzz_amountInKeepsKAndIsAtMostOneOverTheLeast(uint256 bought, uint256 reserveIn, uint256 reserveOut)
        public
        view
    {
        reserveIn = bound(reserveIn, 1, MAX112);
        reserveOut = bound(reserveOut, 2, MAX112);
        bought = bound(bought, 1, reserveOut - 1);
        uint256 paid = math.amountIn(bought, reserveIn, reserveOut);
        assertTrue(keepsK(paid, bought, reserveIn, reserveOut), "amountIn keeps k");
        assertGe(math.amountOut(paid, reserveIn, reserveOut), bought, "amountIn buys what was asked");
        if (paid > 1 && keepsK(paid - 1, bought, reserveIn, reserveOut)) {
            uint256 remainder = (reserveIn * bought * 1000) % ((reserveOut - bought) * 997);
            assertEq(remainder, 0, "one unit less keeps k only when the exact price is whole");
        }
        if (paid > 2) assertFalse(keepsK(paid - 2, bought, reserveIn, reserveOut), "two units less breaks k");
    }

    /// The case that shows it: 997 out of reserves (1, 1997) costs exactly 1, amountIn says 2.
    function test_amountInAsksOneUnitMoreWhenThePriceIsWhole() public view {
        assertEq(math.amountIn(997, 1, 1997), 2, "amountIn");
        assertTrue(keepsK(1, 997, 1, 1997), "1 unit already keeps k");
        assertEq(math.amountOut(1, 1, 1997), 997, "and buys the 997");
    }

    /// At the largest reserves and inputs nothing overflows.
    function test_largestReservesDoNotOverflow() public view {
        assertEq(math.amountOut(MAX112, MAX112, MAX112), (MAX112 * 997) / 1997, "amountOut at 2^112 - 1");
        uint256 paid = math.amountIn(MAX112 - 1, MAX112, MAX112);
        assertTrue(keepsK(paid, MAX112 - 1, MAX112, MAX112), "amountIn at 2^112 - 1 keeps k");
        assertEq(math.quote(MAX112, MAX112, 1), 1, "quote at 2^112 - 1");
        assertEq(math.quote(MAX112, 1, MAX112), MAX112 * MAX112, "quote at (2^112 - 1)^2");
    }

    function testFuzz_quoteIsTheRatioRoundedDown(uint256 amount, uint256 reserveA, uint256 reserveB) public view {
        amount = bound(amount, 1, MAX112);
        reserveA = bound(reserveA, 1, MAX112);
        reserveB = bound(reserveB, 1, MAX112);
        uint256 quoted = math.quote(amount, reserveA, reserveB);
        assertLe(quoted * reserveA, amount * reserveB, "quote <= exact");
        assertGt((quoted + 1) * reserveA, amount * reserveB, "quote + 1 > exact");
    }

    function test_refusesZeroAmountsAndEmptyReserves() public {
        vm.expectRevert(AmmMath.ZeroAmount.selector);
        math.amountOut(0, 1, 1);
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.amountOut(1, 0, 1);
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.amountOut(1, 1, 0);
        vm.expectRevert(AmmMath.ZeroAmount.selector);
        math.amountIn(0, 1, 1);
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.amountIn(1, 0, 2);
        // Buying the whole reserve (or more) is never possible.
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.amountIn(5, 1, 5);
        vm.expectRevert(AmmMath.ZeroAmount.selector);
        math.quote(0, 1, 1);
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.quote(1, 0, 1);
        vm.expectRevert(AmmMath.InsufficientLiquidity.selector);
        math.quote(1, 1, 0);
    }
}
