// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "./AmmMath.sol";
import {IAmmFactory, IAmmPair} from "./IAmm.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Adds and removes liquidity and swaps along paths of pairs, with the user's limits checked:
/// a deadline, least amounts out and most amounts in. Tokens go from the caller (who approved
/// this router) straight into the pairs; the router itself never holds any.
contract AmmRouter {
    using TokenTransfers for address;

    error Expired(uint256 deadline, uint256 timestamp);
    error InvalidPath();
    error PairNotFound(address tokenA, address tokenB);
    error InsufficientAAmount(uint256 amountA, uint256 amountAMin);
    error InsufficientBAmount(uint256 amountB, uint256 amountBMin);
    error InsufficientOutputAmount(uint256 amountOut, uint256 amountOutMin);
    error ExcessiveInputAmount(uint256 amountIn, uint256 amountInMax);

    address public immutable factory;

    modifier beforeDeadline(uint256 deadline) {
        // A deadline is a user's limit in seconds; a block producer's few seconds of leeway is accepted.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp > deadline) revert Expired(deadline, block.timestamp);
        _;
    }

    constructor(address factory_) {
        factory = factory_;
    }

    /// Deposits at the pool's ratio (creating the pair if there is none, at the desired amounts):
    /// the desired amount of one token and as much of the other as that ratio asks, each at least
    /// its minimum.
    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external beforeDeadline(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair = IAmmFactory(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) pair = IAmmFactory(factory).createPair(tokenA, tokenB);
        (uint256 reserveA, uint256 reserveB) = reservesOf(pair, tokenA, tokenB);
        if (reserveA == 0 && reserveB == 0) {
            (amountA, amountB) = (amountADesired, amountBDesired);
        } else {
            uint256 bForDesiredA = AmmMath.quote(amountADesired, reserveA, reserveB);
            if (bForDesiredA <= amountBDesired) {
                (amountA, amountB) = (amountADesired, bForDesiredA);
            } else {
                // Then the A for all of B is at most amountADesired.
                (amountA, amountB) = (AmmMath.quote(amountBDesired, reserveB, reserveA), amountBDesired);
            }
        }
        if (amountA < amountAMin) revert InsufficientAAmount(amountA, amountAMin);
        if (amountB < amountBMin) revert InsufficientBAmount(amountB, amountBMin);
        tokenA.pull(msg.sender, pair, amountA);
        tokenB.pull(msg.sender, pair, amountB);
        liquidity = IAmmPair(pair).mint(to);
    }

    /// Burns `liquidity` of the caller's LP tokens (approved to this router) for both tokens.
    function removeLiquidity(
        address tokenA,
        address tokenB,
        uint256 liquidity,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external beforeDeadline(deadline) returns (uint256 amountA, uint256 amountB) {
        address pair = pairOf(tokenA, tokenB);
        pair.pull(msg.sender, pair, liquidity);
        (uint256 amount0, uint256 amount1) = IAmmPair(pair).burn(to);
        (amountA, amountB) = tokenA < tokenB ? (amount0, amount1) : (amount1, amount0);
        if (amountA < amountAMin) revert InsufficientAAmount(amountA, amountAMin);
        if (amountB < amountBMin) revert InsufficientBAmount(amountB, amountBMin);
    }

    /// Sells exactly `amountIn` of path[0] for at least `amountOutMin` of the last token.
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external beforeDeadline(deadline) returns (uint256[] memory amounts) {
        address[] memory pairs;
        (amounts, pairs) = amountsOut(amountIn, path);
        uint256 out = amounts[amounts.length - 1];
        if (out < amountOutMin) revert InsufficientOutputAmount(out, amountOutMin);
        path[0].pull(msg.sender, pairs[0], amountIn);
        swapAlong(amounts, path, pairs, to);
    }

    /// Buys exactly `amountOut` of the last token of the path for at most `amountInMax` of path[0].
    function swapTokensForExactTokens(
        uint256 amountOut,
        uint256 amountInMax,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external beforeDeadline(deadline) returns (uint256[] memory amounts) {
        address[] memory pairs;
        (amounts, pairs) = amountsIn(amountOut, path);
        if (amounts[0] > amountInMax) revert ExcessiveInputAmount(amounts[0], amountInMax);
        path[0].pull(msg.sender, pairs[0], amounts[0]);
        swapAlong(amounts, path, pairs, to);
    }

    /// amounts[0] = amountIn, amounts[i + 1] = what amounts[i] of path[i] buys of path[i + 1].
    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory amounts) {
        (amounts, ) = amountsOut(amountIn, path);
    }

    /// amounts[last] = amountOut, amounts[i] = the least path[i] that buys amounts[i + 1].
    function getAmountsIn(uint256 amountOut, address[] calldata path) external view returns (uint256[] memory amounts) {
        (amounts, ) = amountsIn(amountOut, path);
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return AmmMath.amountOut(amountIn, reserveIn, reserveOut);
    }

    function getAmountIn(uint256 amountOut, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return AmmMath.amountIn(amountOut, reserveIn, reserveOut);
    }

    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) external pure returns (uint256) {
        return AmmMath.quote(amountA, reserveA, reserveB);
    }

    function amountsOut(
        uint256 amountIn,
        address[] calldata path
    ) private view returns (uint256[] memory amounts, address[] memory pairs) {
        pairs = pairsOf(path);
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i; i < pairs.length; ++i) {
            (uint256 reserveIn, uint256 reserveOut) = reservesOf(pairs[i], path[i], path[i + 1]);
            amounts[i + 1] = AmmMath.amountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function amountsIn(
        uint256 amountOut,
        address[] calldata path
    ) private view returns (uint256[] memory amounts, address[] memory pairs) {
        pairs = pairsOf(path);
        amounts = new uint256[](path.length);
        amounts[amounts.length - 1] = amountOut;
        for (uint256 i = pairs.length; i != 0; --i) {
            (uint256 reserveIn, uint256 reserveOut) = reservesOf(pairs[i - 1], path[i - 1], path[i]);
            amounts[i - 1] = AmmMath.amountIn(amounts[i], reserveIn, reserveOut);
        }
    }

    /// The input is already in pairs[0]; each pair sends its output to the next pair, the last to `to`.
    function swapAlong(uint256[] memory amounts, address[] calldata path, address[] memory pairs, address to) private {
        for (uint256 i; i < pairs.length; ++i) {
            uint256 out = amounts[i + 1];
            (uint256 amount0Out, uint256 amount1Out) = path[i] < path[i + 1] ? (uint256(0), out) : (out, uint256(0));
            address recipient = i + 1 < pairs.length ? pairs[i + 1] : to;
            IAmmPair(pairs[i]).swap(amount0Out, amount1Out, recipient);
        }
    }

    function pairsOf(address[] calldata path) private view returns (address[] memory pairs) {
        if (path.length < 2) revert InvalidPath();
        pairs = new address[](path.length - 1);
        for (uint256 i; i < pairs.length; ++i) pairs[i] = pairOf(path[i], path[i + 1]);
    }

    function pairOf(address tokenA, address tokenB) private view returns (address pair) {
        pair = IAmmFactory(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) revert PairNotFound(tokenA, tokenB);
    }

    /// The pair's reserves in the order (tokenA, tokenB).
    function reservesOf(address pair, address tokenA, address tokenB) private view returns (uint256, uint256) {
        (uint112 reserve0, uint112 reserve1, ) = IAmmPair(pair).getReserves();
        return tokenA < tokenB ? (reserve0, reserve1) : (reserve1, reserve0);
    }
}
