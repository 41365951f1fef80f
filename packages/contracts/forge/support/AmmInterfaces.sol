// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

// The AMM contracts as the suites see them. The suites deploy the contracts from the via-IR build
// of src/ (Cheats.deploy) and call them through these interfaces rather than importing them, so
// the suites themselves compile in the fast "suites" profile (foundry.toml) and src/ is built
// once, as compile.mjs builds it. Each mirrors the external surface of the contract it names.

/// The ERC-20 part of ShareToken (the pair's LP token and xSAUCE).
interface IShareToken {
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

/// src/amm/AmmPair.sol
interface IPair is IShareToken {
    function MINIMUM_LIQUIDITY() external view returns (uint256);
    function LIQUIDITY_LOCK() external view returns (address);
    function factory() external view returns (address);
    function token0() external view returns (address);
    function token1() external view returns (address);
    function kLast() external view returns (uint256);
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function mint(address to) external returns (uint256 liquidity);
    function burn(address to) external returns (uint256 amount0, uint256 amount1);
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external;
    function skim(address to) external;
    function sync() external;
}

/// src/amm/AmmFactory.sol
interface IFactory {
    function feeTo() external view returns (address);
    function getPair(address tokenA, address tokenB) external view returns (address);
    function createPair(address tokenA, address tokenB) external returns (address pair);
    function setFeeTo(address feeTo) external;
}

/// src/amm/AmmRouter.sol
interface IRouter {
    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external returns (uint256 amountA, uint256 amountB, uint256 liquidity);
    function removeLiquidity(
        address tokenA,
        address tokenB,
        uint256 liquidity,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external returns (uint256 amountA, uint256 amountB);
    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);
    function swapTokensForExactTokens(
        uint256 amountOut,
        uint256 amountInMax,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external returns (uint256[] memory amounts);
}

/// src/amm/SauceStaking.sol
interface IStaking is IShareToken {
    error ZeroShares();
    error ZeroSauce();

    function sauce() external view returns (address);
    function sauceHeld() external view returns (uint256);
    function sharesFor(uint256 amount) external view returns (uint256);
    function sauceToEnter(uint256 shares) external view returns (uint256);
    function sauceFor(uint256 shares) external view returns (uint256);
    function enter(uint256 amount) external returns (uint256 shares);
    function leave(uint256 shares) external returns (uint256 amount);
}

/// src/amm/Farm.sol
interface IFarm {
    function saucePerSecond() external view returns (uint256);
    function nativePerSecond() external view returns (uint256);
    function totalAllocPoint() external view returns (uint256);
    function poolInfo(uint256 pid)
        external
        view
        returns (
            address lpToken,
            uint256 allocPoint,
            uint256 lastRewardTime,
            uint256 accSaucePerShare,
            uint256 accNativePerShare,
            uint256 totalStaked
        );
    function userInfo(uint256 pid, address account)
        external
        view
        returns (uint256 amount, uint256 sauceDebt, uint256 nativeDebt, uint256 nativeOwed);
    function add(uint256 allocPoint, address lpToken) external;
    function set(uint256 pid, uint256 allocPoint) external;
    function setEmissions(uint256 saucePerSecond, uint256 nativePerSecond) external;
    function deposit(uint256 pid, uint256 amount) external;
    function withdraw(uint256 pid, uint256 amount) external;
    function harvest(uint256 pid) external;
    function emergencyWithdraw(uint256 pid) external;
    function pendingSauce(uint256 pid, address account) external view returns (uint256);
    function pendingNative(uint256 pid, address account) external view returns (uint256);
}

/// src/devnet/TestToken.sol: the devnet's tokens (SAUCE among them, whose minters the farm joins),
/// which pay only accounts associated with them (HIP-719's calls).
interface ITestToken {
    error TokenNotAssociatedToAccount(address account);
    error TokenAlreadyAssociatedToAccount(address account);
    error TransactionRequiresZeroTokenBalances(address account);
    error AccountIsTreasury(address account);

    function initialize(string calldata name, string calldata symbol, uint8 decimals, address minter) external;
    function addMinter(address account) external;
    function mint(address to, uint256 amount) external;
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
    function approve(address spender, uint256 amount) external returns (bool);
    /// HIP-719, for the caller; the calls return the ledger's response code (22, SUCCESS).
    function associate() external returns (uint256 responseCode);
    function dissociate() external returns (uint256 responseCode);
    function isAssociated() external view returns (bool);
}

/// src/test-support/AmmMathHarness.sol: AmmMath as the via-IR build compiles it.
interface IAmmMath {
    function amountOut(uint256 paid, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256);
    function amountIn(uint256 bought, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256);
    function quote(uint256 amountA, uint256 reserveA, uint256 reserveB) external pure returns (uint256);
    function sqrt(uint256 x) external pure returns (uint256);
}
