// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IMintableToken} from "./IAmm.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// Pays stakers of LP tokens two rewards per second: SAUCE, minted by the farm (it is one of
/// SAUCE's minters), and the native coin, paid from the farm's own balance (the owner funds it
/// by sending coin to it). Each rate is for the whole farm and is shared between pools by
/// allocation points, then within a pool by stake.
///
/// Accounting per pool: acc*PerShare is the reward one staked unit has earned since the pool
/// began (scaled by ACC_PRECISION); a staker's reward debt is what their stake would have earned
/// before they held it, so amount * acc / ACC_PRECISION - debt is what they have yet to collect.
/// Time with no stake in a pool earns nothing (no SAUCE is minted, the coin stays in the farm).
///
/// Native amounts are in the EVM's native unit: wei on the anvil devnet (18 decimals), tinybars
/// inside the ledger's EVM. When the farm's balance cannot pay a staker's native reward in full,
/// it pays what it holds and records the rest as `nativeOwed`, paid at a later harvest. LP tokens
/// that take a fee on transfer are not supported (the farm counts what the staker asked to move).
contract Farm {
    using TokenTransfers for address;

    error NotOwner();
    error Reentrant();
    error ZeroAddress();
    error DuplicatePool(address lpToken);
    error UnknownPool(uint256 pid);
    error InsufficientStake(uint256 staked, uint256 requested);

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event PoolAdded(uint256 indexed pid, address indexed lpToken, uint256 allocPoint);
    event PoolSet(uint256 indexed pid, uint256 allocPoint);
    event EmissionsSet(uint256 saucePerSecond, uint256 nativePerSecond);
    event Deposit(address indexed user, uint256 indexed pid, uint256 amount);
    event Withdraw(address indexed user, uint256 indexed pid, uint256 amount);
    event EmergencyWithdraw(address indexed user, uint256 indexed pid, uint256 amount);
    /// Rewards paid to `user`: SAUCE minted and native coin sent.
    event Harvest(address indexed user, uint256 indexed pid, uint256 sauce, uint256 native);
    /// The native reward `user` is owed in pool `pid` changed to `owed` (short balance, or paid).
    event NativeOwed(address indexed user, uint256 indexed pid, uint256 owed);

    struct PoolInfo {
        address lpToken;
        uint256 allocPoint;
        uint256 lastRewardTime;
        uint256 accSaucePerShare;
        uint256 accNativePerShare;
        uint256 totalStaked;
    }

    struct UserInfo {
        uint256 amount;
        uint256 sauceDebt;
        uint256 nativeDebt;
        uint256 nativeOwed;
    }

    /// 1e18 rather than the usual 1e12: SAUCE has 6 decimals and LP tokens 8, so with 1e10 LP
    /// staked (1e18 units) a rate of 1 SAUCE unit a second would add nothing per second at 1e12.
    /// Overflow needs stake * acc >= 2^256 (about 1.2e77), e.g. 1e27 wei earned while a single LP
    /// unit was staked and then a stake of 1e32 units; emergencyWithdraw needs no such product.
    uint256 public constant ACC_PRECISION = 1e18;

    address public immutable sauce;
    address public owner;
    /// SAUCE units per second for the whole farm.
    uint256 public saucePerSecond;
    /// Native units (wei on the devnet) per second for the whole farm.
    uint256 public nativePerSecond;
    uint256 public totalAllocPoint;
    PoolInfo[] public poolInfo;
    mapping(address => bool) public hasPool;
    mapping(uint256 => mapping(address => UserInfo)) public userInfo;

    bool private transient locked;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    /// On every function that moves tokens or coin: the native payment calls the staker.
    modifier nonReentrant() {
        if (locked) revert Reentrant();
        locked = true;
        _;
        locked = false;
    }

    constructor(address owner_, address sauce_) {
        if (owner_ == address(0) || sauce_ == address(0)) revert ZeroAddress();
        owner = owner_;
        sauce = sauce_;
        emit OwnershipTransferred(address(0), owner_);
    }

    /// Native rewards are funded by plain transfers.
    receive() external payable {}

    function poolLength() external view returns (uint256) {
        return poolInfo.length;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        if (newOwner == address(0)) revert ZeroAddress();
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    /// Adds a pool for `lpToken` earning from now on.
    function add(uint256 allocPoint, address lpToken) external onlyOwner {
        if (lpToken == address(0)) revert ZeroAddress();
        if (hasPool[lpToken]) revert DuplicatePool(lpToken);
        massUpdatePools(); // the others' shares change from now, not retroactively
        hasPool[lpToken] = true;
        totalAllocPoint += allocPoint;
        poolInfo.push(PoolInfo(lpToken, allocPoint, block.timestamp, 0, 0, 0));
        emit PoolAdded(poolInfo.length - 1, lpToken, allocPoint);
    }

    function set(uint256 pid, uint256 allocPoint) external onlyOwner {
        PoolInfo storage pool = poolOf(pid);
        massUpdatePools();
        totalAllocPoint = totalAllocPoint - pool.allocPoint + allocPoint;
        pool.allocPoint = allocPoint;
        emit PoolSet(pid, allocPoint);
    }

    /// Rewards up to now accrue at the old rates; the new ones apply from this block on.
    function setEmissions(uint256 saucePerSecond_, uint256 nativePerSecond_) external onlyOwner {
        massUpdatePools();
        saucePerSecond = saucePerSecond_;
        nativePerSecond = nativePerSecond_;
        emit EmissionsSet(saucePerSecond_, nativePerSecond_);
    }

    function massUpdatePools() public {
        for (uint256 pid; pid < poolInfo.length; ++pid) updatePool(pid);
    }

    /// Brings the pool's accumulators up to this block.
    function updatePool(uint256 pid) public {
        PoolInfo storage pool = poolOf(pid);
        // The farm's clock is the block time by design: a producer's leeway shifts seconds of rewards, no more.
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp <= pool.lastRewardTime) return;
        (pool.accSaucePerShare, pool.accNativePerShare) = accumulated(pool);
        pool.lastRewardTime = block.timestamp;
    }

    /// Stakes `amount` of the pool's LP token (approved to the farm), paying rewards so far.
    function deposit(uint256 pid, uint256 amount) external nonReentrant {
        updatePool(pid);
        PoolInfo storage pool = poolInfo[pid];
        UserInfo storage user = userInfo[pid][msg.sender];
        (uint256 sauceDue, uint256 nativeDue) = due(pool, user);
        user.amount += amount;
        pool.totalStaked += amount;
        resetDebts(pool, user);
        if (amount != 0) pool.lpToken.pull(msg.sender, address(this), amount);
        pay(pid, user, sauceDue, nativeDue);
        emit Deposit(msg.sender, pid, amount);
    }

    /// Unstakes `amount`, paying rewards so far.
    function withdraw(uint256 pid, uint256 amount) external nonReentrant {
        updatePool(pid);
        PoolInfo storage pool = poolInfo[pid];
        UserInfo storage user = userInfo[pid][msg.sender];
        if (amount > user.amount) revert InsufficientStake(user.amount, amount);
        (uint256 sauceDue, uint256 nativeDue) = due(pool, user);
        user.amount -= amount;
        pool.totalStaked -= amount;
        resetDebts(pool, user);
        if (amount != 0) pool.lpToken.send(msg.sender, amount);
        pay(pid, user, sauceDue, nativeDue);
        emit Withdraw(msg.sender, pid, amount);
    }

    /// Pays the rewards so far (and native coin owed from earlier harvests, as far as the
    /// farm's balance goes).
    function harvest(uint256 pid) external nonReentrant {
        updatePool(pid);
        PoolInfo storage pool = poolInfo[pid];
        UserInfo storage user = userInfo[pid][msg.sender];
        (uint256 sauceDue, uint256 nativeDue) = due(pool, user);
        resetDebts(pool, user);
        pay(pid, user, sauceDue, nativeDue);
    }

    /// Unstakes everything without paying the rewards since the last harvest (they are given
    /// up); native coin already owed stays owed. A way out should paying rewards ever fail.
    function emergencyWithdraw(uint256 pid) external nonReentrant {
        PoolInfo storage pool = poolOf(pid);
        UserInfo storage user = userInfo[pid][msg.sender];
        uint256 amount = user.amount;
        user.amount = 0;
        user.sauceDebt = 0;
        user.nativeDebt = 0;
        pool.totalStaked -= amount;
        pool.lpToken.send(msg.sender, amount);
        emit EmergencyWithdraw(msg.sender, pid, amount);
    }

    function pendingSauce(uint256 pid, address account) external view returns (uint256) {
        PoolInfo storage pool = poolOf(pid);
        UserInfo storage user = userInfo[pid][account];
        (uint256 accSauce, ) = accumulated(pool);
        return (user.amount * accSauce) / ACC_PRECISION - user.sauceDebt;
    }

    /// The native reward a harvest now would owe: accrued since the last harvest plus `nativeOwed`.
    function pendingNative(uint256 pid, address account) external view returns (uint256) {
        PoolInfo storage pool = poolOf(pid);
        UserInfo storage user = userInfo[pid][account];
        (, uint256 accNative) = accumulated(pool);
        return (user.amount * accNative) / ACC_PRECISION - user.nativeDebt + user.nativeOwed;
    }

    /// The pool's accumulators as of this block. Rewards are split by allocation points first,
    /// each rounded down, then per staked unit, rounded down: dust is never paid, never overpaid.
    function accumulated(PoolInfo storage pool) private view returns (uint256 accSauce, uint256 accNative) {
        accSauce = pool.accSaucePerShare;
        accNative = pool.accNativePerShare;
        uint256 staked = pool.totalStaked;
        // forge-lint: disable-next-line(block-timestamp)
        if (block.timestamp <= pool.lastRewardTime || staked == 0 || pool.allocPoint == 0) return (accSauce, accNative);
        uint256 elapsed = block.timestamp - pool.lastRewardTime;
        uint256 sauceReward = (elapsed * saucePerSecond * pool.allocPoint) / totalAllocPoint;
        uint256 nativeReward = (elapsed * nativePerSecond * pool.allocPoint) / totalAllocPoint;
        accSauce += (sauceReward * ACC_PRECISION) / staked;
        accNative += (nativeReward * ACC_PRECISION) / staked;
    }

    /// What the staker collects now, before their stake changes; the owed native is included.
    function due(PoolInfo storage pool, UserInfo storage user) private view returns (uint256 sauceDue, uint256 nativeDue) {
        sauceDue = (user.amount * pool.accSaucePerShare) / ACC_PRECISION - user.sauceDebt;
        nativeDue = (user.amount * pool.accNativePerShare) / ACC_PRECISION - user.nativeDebt + user.nativeOwed;
    }

    function resetDebts(PoolInfo storage pool, UserInfo storage user) private {
        user.sauceDebt = (user.amount * pool.accSaucePerShare) / ACC_PRECISION;
        user.nativeDebt = (user.amount * pool.accNativePerShare) / ACC_PRECISION;
    }

    /// Mints the SAUCE due and sends as much of the native due as the farm holds; the rest of the
    /// native stays owed, as does all of it if the staker refuses the coin.
    function pay(uint256 pid, UserInfo storage user, uint256 sauceDue, uint256 nativeDue) private {
        uint256 owedBefore = user.nativeOwed;
        uint256 available = address(this).balance;
        uint256 nativePaid = nativeDue < available ? nativeDue : available;
        user.nativeOwed = nativeDue - nativePaid;
        if (sauceDue != 0) IMintableToken(sauce).mint(msg.sender, sauceDue);
        if (nativePaid != 0) {
            (bool ok, ) = msg.sender.call{value: nativePaid}("");
            if (!ok) {
                user.nativeOwed = nativeDue;
                nativePaid = 0;
            }
        }
        if (user.nativeOwed != owedBefore) emit NativeOwed(msg.sender, pid, user.nativeOwed);
        if (sauceDue != 0 || nativePaid != 0) emit Harvest(msg.sender, pid, sauceDue, nativePaid);
    }

    function poolOf(uint256 pid) private view returns (PoolInfo storage) {
        if (pid >= poolInfo.length) revert UnknownPool(pid);
        return poolInfo[pid];
    }
}
