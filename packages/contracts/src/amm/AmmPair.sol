// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "./AmmMath.sol";
import {IAmmFactory} from "./IAmm.sol";
import {ShareToken} from "./ShareToken.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// A constant-product pool of two tokens that is its own LP token.
///
/// Callers move tokens in first and then call `mint`, `burn` or `swap`, which read what arrived
/// from the pair's balances against its recorded reserves (the router does both in one
/// transaction). A swap must leave (balance0 - 0.3 % of input0) * (balance1 - 0.3 % of input1) at
/// least reserve0 * reserve1, so the 0.3 % fee stays in the pool and grows every LP share.
///
/// When the factory names a `feeTo`, 1/6 of that growth (measured as sqrt(k) between liquidity
/// events) is minted to it as new LP tokens at the next mint or burn.
contract AmmPair is ShareToken {
    using TokenTransfers for address;

    error Locked();
    error ZeroInput();
    error ZeroOutput();
    error InsufficientLiquidity();
    error InsufficientLiquidityMinted();
    error InsufficientLiquidityBurned();
    error InvalidRecipient();
    error KInvariant();
    error ReserveOverflow();

    event Mint(address indexed sender, uint256 amount0, uint256 amount1);
    event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    string public constant name = "SaucerSwap LP Token";
    string public constant symbol = "SSLP";
    uint8 public constant decimals = 8;

    /// LP units locked forever by the first mint, so the supply never returns to zero and one
    /// unit of LP can never be made worth so much that small deposits round to nothing.
    uint256 public constant MINIMUM_LIQUIDITY = 1000;
    /// Holder of the locked units: a key nobody has, rather than address(0), so the lock shows
    /// as an ordinary balance and its Transfer is not mistaken for a burn.
    address public constant LIQUIDITY_LOCK = 0x000000000000000000000000000000000000dEaD;

    address public immutable factory;
    address public immutable token0;
    address public immutable token1;

    // One storage slot: 112 + 112 + 32 bits.
    uint112 private _reserve0;
    uint112 private _reserve1;
    uint32 private _blockTimestampLast;

    /// reserve0 * reserve1 after the last liquidity event while the protocol fee is on, else 0.
    uint256 public kLast;

    bool private transient locked;

    modifier lock() {
        if (locked) revert Locked();
        locked = true;
        _;
        locked = false;
    }

    /// Created by the factory, which sorts the tokens (token0 < token1).
    constructor(address token0_, address token1_) {
        factory = msg.sender;
        token0 = token0_;
        token1 = token1_;
    }

    /// The balances as of the last mint, burn, swap or sync, and that block's timestamp (mod 2^32).
    function getReserves() public view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast) {
        return (_reserve0, _reserve1, _blockTimestampLast);
    }

    /// Mints LP tokens to `to` for what was sent in since the last update.
    function mint(address to) external lock returns (uint256 liquidity) {
        (uint112 r0, uint112 r1, ) = getReserves();
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        uint256 amount0 = balance0 - r0;
        uint256 amount1 = balance1 - r1;

        bool feeOn = mintProtocolFee(r0, r1);
        uint256 supply = totalSupply; // after the fee's mint, which dilutes this deposit too
        if (supply == 0) {
            uint256 root = AmmMath.sqrt(amount0 * amount1);
            if (root <= MINIMUM_LIQUIDITY) revert InsufficientLiquidityMinted();
            liquidity = root - MINIMUM_LIQUIDITY;
            _mint(LIQUIDITY_LOCK, MINIMUM_LIQUIDITY);
        } else {
            // The smaller share: a deposit off the pool's ratio donates its excess to the pool.
            uint256 by0 = (amount0 * supply) / r0;
            uint256 by1 = (amount1 * supply) / r1;
            liquidity = by0 < by1 ? by0 : by1;
        }
        if (liquidity == 0) revert InsufficientLiquidityMinted();
        _mint(to, liquidity);

        update(balance0, balance1);
        if (feeOn) kLast = uint256(_reserve0) * _reserve1;
        emit Mint(msg.sender, amount0, amount1);
    }

    /// Burns the LP tokens sent to the pair and pays their share of both reserves to `to`.
    function burn(address to) external lock returns (uint256 amount0, uint256 amount1) {
        (uint112 r0, uint112 r1, ) = getReserves();
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));
        uint256 liquidity = balanceOf[address(this)];

        bool feeOn = mintProtocolFee(r0, r1);
        uint256 supply = totalSupply;
        // Shares of balances, not reserves: anything sent in unaccounted goes to this burner.
        amount0 = (liquidity * balance0) / supply;
        amount1 = (liquidity * balance1) / supply;
        if (amount0 == 0 || amount1 == 0) revert InsufficientLiquidityBurned();
        _burn(address(this), liquidity);
        token0.send(to, amount0);
        token1.send(to, amount1);

        update(token0.balanceOf(address(this)), token1.balanceOf(address(this)));
        if (feeOn) kLast = uint256(_reserve0) * _reserve1;
        emit Burn(msg.sender, amount0, amount1, to);
    }

    /// Sends the outputs to `to`, then checks the input already sent in pays for them.
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external lock {
        if (amount0Out == 0 && amount1Out == 0) revert ZeroOutput();
        (uint112 r0, uint112 r1, ) = getReserves();
        if (amount0Out >= r0 || amount1Out >= r1) revert InsufficientLiquidity();
        if (to == token0 || to == token1) revert InvalidRecipient();

        if (amount0Out != 0) token0.send(to, amount0Out);
        if (amount1Out != 0) token1.send(to, amount1Out);
        uint256 balance0 = token0.balanceOf(address(this));
        uint256 balance1 = token1.balanceOf(address(this));

        // Input is whatever the balance holds beyond the reserve left after the output.
        uint256 amount0In = balance0 > r0 - amount0Out ? balance0 - (r0 - amount0Out) : 0;
        uint256 amount1In = balance1 > r1 - amount1Out ? balance1 - (r1 - amount1Out) : 0;
        if (amount0In == 0 && amount1In == 0) revert ZeroInput();

        // In thousandths, so the 3/1000 fee on each input is exact integer arithmetic.
        uint256 adjusted0 = balance0 * AmmMath.FEE_SCALE - amount0In * (AmmMath.FEE_SCALE - AmmMath.AFTER_FEE);
        uint256 adjusted1 = balance1 * AmmMath.FEE_SCALE - amount1In * (AmmMath.FEE_SCALE - AmmMath.AFTER_FEE);
        if (adjusted0 * adjusted1 < uint256(r0) * r1 * AmmMath.FEE_SCALE ** 2) revert KInvariant();

        update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    /// Sends `to` whatever the balances hold beyond the reserves.
    function skim(address to) external lock {
        token0.send(to, token0.balanceOf(address(this)) - _reserve0);
        token1.send(to, token1.balanceOf(address(this)) - _reserve1);
    }

    /// Sets the reserves to the balances (after a donation, or a token that changed balances).
    /// A pair without liquidity keeps zero reserves: it has no price until its first mint, which
    /// counts whatever was sent before as the first LP's deposit. Synced, such a donation would
    /// set a price (or a zero reserve) that the router makes every first deposit follow, so a
    /// donation of one token, or of both at an absurd ratio, could keep a pair from ever starting.
    function sync() external lock {
        if (totalSupply == 0) return;
        update(token0.balanceOf(address(this)), token1.balanceOf(address(this)));
    }

    function update(uint256 balance0, uint256 balance1) private {
        if (balance0 > type(uint112).max || balance1 > type(uint112).max) revert ReserveOverflow();
        // The casts below cannot truncate: both balances were just checked to fit in 112 bits.
        // forge-lint: disable-next-line(unsafe-typecast)
        _reserve0 = uint112(balance0);
        // forge-lint: disable-next-line(unsafe-typecast)
        _reserve1 = uint112(balance1);
        _blockTimestampLast = uint32(block.timestamp); // wraps in 2106; nothing here does arithmetic on it
        // forge-lint: disable-next-line(unsafe-typecast)
        emit Sync(uint112(balance0), uint112(balance1));
    }

    /// Mints the protocol's 1/6 of the fees earned since the last liquidity event; says whether
    /// the fee is on. With s the supply and r, rl the roots of k now and at the last event, the
    /// liquidity x that owns (r - rl)/6 of r solves x/(s + x) * r = (r - rl)/6:
    /// x = s * (r - rl) / (5r + rl).
    function mintProtocolFee(uint112 r0, uint112 r1) private returns (bool feeOn) {
        address feeTo = IAmmFactory(factory).feeTo();
        feeOn = feeTo != address(0);
        uint256 k = kLast;
        if (!feeOn) {
            if (k != 0) kLast = 0; // a later switch-on measures growth from then, not from before
            return false;
        }
        if (k == 0) return true;
        uint256 root = AmmMath.sqrt(uint256(r0) * r1);
        uint256 rootLast = AmmMath.sqrt(k);
        if (root <= rootLast) return true;
        uint256 liquidity = (totalSupply * (root - rootLast)) / (root * 5 + rootLast);
        if (liquidity != 0) _mint(feeTo, liquidity);
    }
}
