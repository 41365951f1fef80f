// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "../../src/amm/AmmMath.sol";
import {IFactory, IPair, IRouter} from "../support/AmmInterfaces.sol";
import {Cheats} from "../support/Test.sol";
import {PlainToken} from "../support/Tokens.sol";

/// Drives one pair, from empty, through router and direct mints, burns, swaps both ways, donations,
/// syncs, skims and the protocol-fee switch, for three LPs/traders. Each action first works out
/// whether the pair must accept it (and skips what it may refuse), so any revert is a finding; after
/// each it checks what must hold across it and keeps the first breach in `violation`.
contract PairHandler is Cheats {
    uint256 internal constant ACTORS = 3;
    uint256 internal constant FUNDS = 1e18; // of each token, per actor

    IFactory public immutable factory;
    IRouter public immutable router;
    IPair public immutable pair;
    PlainToken public immutable token0;
    PlainToken public immutable token1;
    address public immutable feeTo;
    address[] public actors;

    /// The first breach seen, with the action it followed ("" while none).
    string public violation;
    /// sqrt(k) and LP supply after the last mint or burn: sqrt(k) per LP unit never falls below it.
    uint256 public rootAtEvent;
    uint256 public supplyAtEvent;
    mapping(bytes32 => uint256) public calls;

    constructor() {
        factory = IFactory(deploy("AmmFactory.sol:AmmFactory", abi.encode(address(this))));
        router = IRouter(deploy("AmmRouter.sol:AmmRouter", abi.encode(address(factory))));
        PlainToken a = new PlainToken("A", 8);
        PlainToken b = new PlainToken("B", 6);
        (token0, token1) = address(a) < address(b) ? (a, b) : (b, a);
        pair = IPair(factory.createPair(address(token0), address(token1)));
        feeTo = makeAddr("feeTo");
        for (uint256 i; i < ACTORS; ++i) {
            address actor = makeAddr(string.concat("actor", vm.toString(i)));
            actors.push(actor);
            token0.mint(actor, FUNDS);
            token1.mint(actor, FUNDS);
            vm.startPrank(actor);
            token0.approve(address(router), type(uint256).max);
            token1.approve(address(router), type(uint256).max);
            pair.approve(address(router), type(uint256).max);
            vm.stopPrank();
        }
    }

    function actorCount() external pure returns (uint256) {
        return ACTORS;
    }

    // --- actions ---

    /// addLiquidity through the router: any first deposit worth more than the locked minimum, or a
    /// deposit at the pool's ratio worth at least one LP unit.
    function addLiquidity(uint256 actorSeed, uint256 seed0, uint256 seed1) external {
        address actor = actorOf(actorSeed);
        (uint256 r0, uint256 r1) = reserves();
        uint256 supply = pair.totalSupply();
        uint256 desired0 = amountUpTo(seed0, token0.balanceOf(actor));
        uint256 desired1 = amountUpTo(seed1, token1.balanceOf(actor));
        if (desired0 == 0 || desired1 == 0) return;
        if (supply == 0) {
            // A pair without liquidity takes any first deposit (whatever was sent or synced before).
            uint256 in0 = token0.balanceOf(address(pair)) - r0 + desired0;
            uint256 in1 = token1.balanceOf(address(pair)) - r1 + desired1;
            if (AmmMath.sqrt(in0 * in1) <= pair.MINIMUM_LIQUIDITY()) return;
        } else {
            desired1 = AmmMath.quote(desired0, r0, r1);
            if (desired1 == 0 || desired1 > token1.balanceOf(actor)) return;
            uint256 by0 = (desired0 * supply) / r0;
            uint256 by1 = (desired1 * supply) / r1;
            if ((by0 < by1 ? by0 : by1) == 0) return;
        }
        uint256 kBefore = r0 * r1;
        vm.prank(actor);
        try router.addLiquidity(
            address(token0), address(token1), desired0, desired1, 0, 0, actor, type(uint256).max
        ) {} catch (bytes memory reason) {
            breach("addLiquidity reverted", reason);
            return;
        }
        afterAction("addLiquidity", kBefore, true);
    }

    /// Tokens sent straight to the pair in any proportion, then mint: the excess is donated.
    function mintDirect(uint256 actorSeed, uint256 seed0, uint256 seed1) external {
        address actor = actorOf(actorSeed);
        (uint256 r0, uint256 r1) = reserves();
        uint256 supply = pair.totalSupply();
        uint256 sent0 = amountUpTo(seed0, token0.balanceOf(actor));
        uint256 sent1 = amountUpTo(seed1, token1.balanceOf(actor));
        uint256 in0 = token0.balanceOf(address(pair)) - r0 + sent0;
        uint256 in1 = token1.balanceOf(address(pair)) - r1 + sent1;
        if (supply == 0) {
            if (AmmMath.sqrt(in0 * in1) <= pair.MINIMUM_LIQUIDITY()) return;
        } else {
            // The protocol fee minted first only raises the supply these shares are taken of.
            uint256 by0 = (in0 * supply) / r0;
            uint256 by1 = (in1 * supply) / r1;
            if ((by0 < by1 ? by0 : by1) == 0) return;
        }
        uint256 kBefore = r0 * r1;
        vm.startPrank(actor);
        send(token0, address(pair), sent0);
        send(token1, address(pair), sent1);
        vm.stopPrank();
        try pair.mint(actor) {} catch (bytes memory reason) {
            breach("mint reverted", reason);
            return;
        }
        afterAction("mintDirect", kBefore, true);
    }

    /// removeLiquidity through the router, of any part of the actor's LP tokens.
    function removeLiquidity(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 liquidity = amountUpTo(seed, pair.balanceOf(actor));
        if (liquidity == 0) return;
        uint256 supply = pair.totalSupply() + protocolFeeDue();
        if ((liquidity * token0.balanceOf(address(pair))) / supply == 0) return;
        if ((liquidity * token1.balanceOf(address(pair))) / supply == 0) return;
        vm.prank(actor);
        try router.removeLiquidity(address(token0), address(token1), liquidity, 0, 0, actor, type(uint256).max) {}
        catch (bytes memory reason) {
            breach("removeLiquidity reverted", reason);
            return;
        }
        afterAction("removeLiquidity", 0, true);
    }

    /// swapExactTokensForTokens either way, at the router's quote.
    function swapExactIn(uint256 actorSeed, bool zeroForOne, uint256 seed) external {
        address actor = actorOf(actorSeed);
        (uint256 r0, uint256 r1) = reserves();
        if (r0 == 0 || r1 == 0) return;
        (PlainToken tokenIn, PlainToken tokenOut) = zeroForOne ? (token0, token1) : (token1, token0);
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (r0, r1) : (r1, r0);
        uint256 paid = amountUpTo(seed, tokenIn.balanceOf(actor));
        if (paid == 0 || reserveIn + paid > type(uint112).max) return;
        if (AmmMath.amountOut(paid, reserveIn, reserveOut) == 0) return;
        address[] memory path = new address[](2);
        (path[0], path[1]) = (address(tokenIn), address(tokenOut));
        vm.prank(actor);
        try router.swapExactTokensForTokens(paid, 0, path, actor, type(uint256).max) {} catch (bytes memory reason) {
            breach("swapExactIn reverted", reason);
            return;
        }
        afterAction("swapExactIn", r0 * r1, false);
    }

    /// swapTokensForExactTokens either way: any output short of the whole reserve.
    function swapExactOut(uint256 actorSeed, bool zeroForOne, uint256 seed) external {
        address actor = actorOf(actorSeed);
        (uint256 r0, uint256 r1) = reserves();
        (PlainToken tokenIn, PlainToken tokenOut) = zeroForOne ? (token0, token1) : (token1, token0);
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (r0, r1) : (r1, r0);
        if (reserveIn == 0 || reserveOut < 2) return;
        uint256 bought = amountUpTo(seed, reserveOut - 1);
        uint256 paid = AmmMath.amountIn(bought, reserveIn, reserveOut);
        if (paid > tokenIn.balanceOf(actor)) return;
        address[] memory path = new address[](2);
        (path[0], path[1]) = (address(tokenIn), address(tokenOut));
        vm.prank(actor);
        try router.swapTokensForExactTokens(bought, paid, path, actor, type(uint256).max) {} catch (bytes memory reason) {
            breach("swapExactOut reverted", reason);
            return;
        }
        afterAction("swapExactOut", r0 * r1, false);
    }

    /// Tokens sent to the pair and left there (a donation, or a deposit someone else will use).
    function donate(uint256 actorSeed, bool first, uint256 seed) external {
        address actor = actorOf(actorSeed);
        PlainToken token = first ? token0 : token1;
        uint256 amount = amountUpTo(seed, token.balanceOf(actor));
        if (amount == 0) return;
        (uint256 r0, uint256 r1) = reserves();
        vm.prank(actor);
        send(token, address(pair), amount);
        afterAction("donate", r0 * r1, false);
    }

    function sync() external {
        (uint256 r0, uint256 r1) = reserves();
        try pair.sync() {} catch (bytes memory reason) {
            breach("sync reverted", reason);
            return;
        }
        afterAction("sync", r0 * r1, false);
    }

    function skim(uint256 actorSeed) external {
        (uint256 r0, uint256 r1) = reserves();
        try pair.skim(actorOf(actorSeed)) {} catch (bytes memory reason) {
            breach("skim reverted", reason);
            return;
        }
        afterAction("skim", r0 * r1, false);
    }

    /// Switches the protocol fee on (to feeTo) or off.
    function setFee(bool on) external {
        factory.setFeeTo(on ? feeTo : address(0));
        ++calls[keccak256("setFee")];
    }

    // --- checks ---

    function reserves() public view returns (uint256 reserve0, uint256 reserve1) {
        (reserve0, reserve1, ) = pair.getReserves();
    }

    /// Every address that can hold LP tokens here.
    function lpHolders() external view returns (address[] memory holders) {
        holders = new address[](ACTORS + 3);
        for (uint256 i; i < ACTORS; ++i) holders[i] = actors[i];
        holders[ACTORS] = pair.LIQUIDITY_LOCK();
        holders[ACTORS + 1] = feeTo;
        holders[ACTORS + 2] = address(pair);
    }

    /// After an action: k did not fall (`kBefore`; not checked across a burn, which takes its share
    /// of k out), and sqrt(k) per LP unit is not below its value at the last mint or burn.
    function afterAction(string memory action, uint256 kBefore, bool liquidityEvent) internal {
        ++calls[keccak256(bytes(action))];
        (uint256 r0, uint256 r1) = reserves();
        uint256 k = r0 * r1;
        if (kBefore != 0 && k < kBefore) note(string.concat(action, ": k fell from ", vm.toString(kBefore), " to ", vm.toString(k)));
        uint256 supply = pair.totalSupply();
        uint256 root = AmmMath.sqrt(k);
        // (root + 1) / supply >= rootAtEvent / supplyAtEvent, allowing for sqrt's rounding down.
        if (supplyAtEvent != 0 && (root + 1) * supplyAtEvent < rootAtEvent * supply) {
            note(
                string.concat(
                    action,
                    ": sqrt(k) per LP unit fell: ",
                    vm.toString(root),
                    "/",
                    vm.toString(supply),
                    " < ",
                    vm.toString(rootAtEvent),
                    "/",
                    vm.toString(supplyAtEvent)
                )
            );
        }
        if (liquidityEvent) (rootAtEvent, supplyAtEvent) = (root, supply);
    }

    /// The LP units the pair's next mint or burn will mint to feeTo (AmmPair.mintProtocolFee).
    function protocolFeeDue() internal view returns (uint256) {
        uint256 kLast = pair.kLast();
        if (factory.feeTo() == address(0) || kLast == 0) return 0;
        (uint256 r0, uint256 r1) = reserves();
        uint256 root = AmmMath.sqrt(r0 * r1);
        uint256 rootLast = AmmMath.sqrt(kLast);
        if (root <= rootLast) return 0;
        return (pair.totalSupply() * (root - rootLast)) / (root * 5 + rootLast);
    }

    function actorOf(uint256 seed) internal view returns (address) {
        return actors[seed % ACTORS];
    }

    function send(PlainToken token, address to, uint256 amount) internal {
        if (amount != 0 && !token.transfer(to, amount)) note("token transfer returned false");
    }

    function breach(string memory what, bytes memory reason) internal {
        note(string.concat(what, " with ", vm.toString(reason)));
    }

    function note(string memory what) internal {
        if (bytes(violation).length == 0) violation = what;
    }
}
