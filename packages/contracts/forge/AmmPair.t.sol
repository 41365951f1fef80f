// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "../src/amm/AmmMath.sol";
import {IFactory, IPair, IRouter} from "./support/AmmInterfaces.sol";
import {Test} from "./support/Test.sol";
import {PlainToken} from "./support/Tokens.sol";

/// AmmPair at its edges: a pair that nobody has added liquidity to yet, donations and syncs.
contract AmmPairTest is Test {
    IFactory internal factory;
    IRouter internal router;
    PlainToken internal token0;
    PlainToken internal token1;
    IPair internal pair;
    address internal lp = makeAddr("lp");
    address internal griefer = makeAddr("griefer");

    function setUp() public {
        factory = IFactory(deploy("AmmFactory.sol:AmmFactory", abi.encode(address(this))));
        router = IRouter(deploy("AmmRouter.sol:AmmRouter", abi.encode(address(factory))));
        PlainToken a = new PlainToken("A", 8);
        PlainToken b = new PlainToken("B", 6);
        (token0, token1) = address(a) < address(b) ? (a, b) : (b, a);
        pair = IPair(factory.createPair(address(token0), address(token1)));
        for (uint256 i; i < 2; ++i) {
            address who = i == 0 ? lp : griefer;
            token0.mint(who, 1e30);
            token1.mint(who, 1e30);
            vm.startPrank(who);
            token0.approve(address(router), type(uint256).max);
            token1.approve(address(router), type(uint256).max);
            vm.stopPrank();
        }
    }

    function reserves() internal view returns (uint256 reserve0, uint256 reserve1) {
        (reserve0, reserve1, ) = pair.getReserves();
    }

    function addLiquidity(uint256 amount0, uint256 amount1) internal returns (uint256 liquidity) {
        vm.prank(lp);
        (, , liquidity) = router.addLiquidity(
            address(token0), address(token1), amount0, amount1, 0, 0, lp, type(uint256).max
        );
    }

    /// A griefer sends one token to a pair nobody has added liquidity to and syncs: before the
    /// fix the reserves read (0, x), the router quotes against a zero reserve, and every
    /// addLiquidity reverts with InsufficientLiquidity.
    function test_pairDonatedOneTokenAndSyncedStillTakesLiquidity() public {
        vm.startPrank(griefer);
        assertTrue(token1.transfer(address(pair), 1e6), "donation");
        pair.sync();
        vm.stopPrank();

        uint256 liquidity = addLiquidity(4e8, 1e6);
        // The first LP takes the donation: it is counted in their deposit.
        assertEq(liquidity, AmmMath.sqrt(4e8 * 2e6) - pair.MINIMUM_LIQUIDITY(), "first LP's liquidity");
        (uint256 reserve0, uint256 reserve1) = reserves();
        assertEq(reserve0, 4e8, "reserve0");
        assertEq(reserve1, 2e6, "reserve1");
    }

    /// The same with both tokens sent at an absurd ratio: the router would make the first LP
    /// follow it (here: a deposit of nothing, refused as InsufficientLiquidityMinted).
    function test_pairDonatedAtAnAbsurdRatioAndSyncedStillTakesLiquidity() public {
        vm.startPrank(griefer);
        assertTrue(token0.transfer(address(pair), 1), "donation 0");
        assertTrue(token1.transfer(address(pair), 1e24), "donation 1");
        pair.sync();
        vm.stopPrank();
        uint256 liquidity = addLiquidity(1e8, 1e8);
        assertGt(liquidity, 0, "first LP's liquidity");
        (uint256 reserve0, uint256 reserve1) = reserves();
        assertEq(reserve0, 1e8 + 1, "reserve0");
        assertEq(reserve1, 1e8 + 1e24, "reserve1");
    }

    /// Until the first mint a pair has no price: a sync there leaves the reserves at zero (the
    /// donation stays in the balances, for the first LP).
    function test_syncOnAnEmptyPairKeepsTheReservesZero() public {
        vm.startPrank(griefer);
        assertTrue(token0.transfer(address(pair), 3), "donation 0");
        assertTrue(token1.transfer(address(pair), 1e6), "donation 1");
        pair.sync();
        vm.stopPrank();
        (uint256 reserve0, uint256 reserve1) = reserves();
        assertEq(reserve0, 0, "reserve0 of an empty pair");
        assertEq(reserve1, 0, "reserve1 of an empty pair");
    }

    /// A sync on a pair with liquidity still takes a donation into the reserves.
    function test_syncTakesADonationOnceThereIsLiquidity() public {
        addLiquidity(1e8, 1e8);
        vm.prank(griefer);
        assertTrue(token1.transfer(address(pair), 5), "donation");
        pair.sync();
        (uint256 reserve0, uint256 reserve1) = reserves();
        assertEq(reserve0, 1e8, "reserve0");
        assertEq(reserve1, 1e8 + 5, "reserve1");
    }
}
