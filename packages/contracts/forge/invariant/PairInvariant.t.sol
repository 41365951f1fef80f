// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPair} from "../support/AmmInterfaces.sol";
import {Test} from "../support/Test.sol";
import {PlainToken} from "../support/Tokens.sol";
import {PairHandler} from "./PairHandler.sol";

/// The pair's promises under any sequence of PairHandler's actions, starting from an empty pair:
/// k never falls across swaps, mints, syncs and skims, sqrt(k) per LP unit never falls (burns
/// included), every action the pair must accept succeeds (a donated pair still takes liquidity),
/// and the LP supply and reserves stay consistent with the balances.
contract PairInvariantTest is Test {
    PairHandler internal handler;

    function setUp() public {
        handler = new PairHandler();
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](10);
        selectors[0] = PairHandler.addLiquidity.selector;
        selectors[1] = PairHandler.mintDirect.selector;
        selectors[2] = PairHandler.removeLiquidity.selector;
        selectors[3] = PairHandler.swapExactIn.selector;
        selectors[4] = PairHandler.swapExactOut.selector;
        selectors[5] = PairHandler.donate.selector;
        selectors[6] = PairHandler.sync.selector;
        selectors[7] = PairHandler.skim.selector;
        selectors[8] = PairHandler.setFee.selector;
        selectors[9] = PairHandler.addLiquidity.selector; // liquidity twice as likely: pairs start empty
        targetSelector(address(handler), selectors);
    }

    /// No action broke k or the value of an LP unit, and none that must succeed reverted.
    function invariant_noBreachAcrossAnAction() public view {
        string memory violation = handler.violation();
        assertTrue(bytes(violation).length == 0, violation);
    }

    /// The LP supply is the sum of the balances; an empty pair (no supply) has zero reserves and a
    /// pair with liquidity has both reserves above zero; the pair holds at least its reserves.
    function invariant_supplyAndReservesAreConsistent() public view {
        IPair pair = handler.pair();
        address[] memory holders = handler.lpHolders();
        uint256 sum;
        for (uint256 i; i < holders.length; ++i) sum += pair.balanceOf(holders[i]);
        uint256 supply = pair.totalSupply();
        assertEq(sum, supply, "LP balances add up to the supply");
        (uint256 r0, uint256 r1) = handler.reserves();
        if (supply == 0) {
            assertEq(r0, 0, "reserve0 of a pair without liquidity");
            assertEq(r1, 0, "reserve1 of a pair without liquidity");
        } else {
            assertGe(supply, pair.MINIMUM_LIQUIDITY(), "supply keeps the locked minimum");
            assertGt(r0, 0, "reserve0 of a pair with liquidity");
            assertGt(r1, 0, "reserve1 of a pair with liquidity");
        }
        PlainToken token0 = handler.token0();
        PlainToken token1 = handler.token1();
        assertGe(token0.balanceOf(address(pair)), r0, "balance0 covers reserve0");
        assertGe(token1.balanceOf(address(pair)), r1, "balance1 covers reserve1");
        assertEq(pair.balanceOf(address(pair)), 0, "no LP left in the pair between calls");
    }
}
