// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IFarm, ITestToken} from "../support/AmmInterfaces.sol";
import {Cheats} from "../support/Test.sol";
import {PlainToken} from "../support/Tokens.sol";

/// Drives a farm of two pools for three stakers: deposits, withdrawals, harvests and emergency
/// withdrawals of any size, time passing, new emission rates and allocation points, and coin sent
/// to fund it. Keeps, as ghosts, the SAUCE and native coin the rates have emitted so far.
contract FarmHandler is Cheats {
    uint256 internal constant ACTORS = 3;
    uint256 public constant POOLS = 2;
    uint256 internal constant FUNDS = 1e24; // LP units per actor per pool

    ITestToken public immutable sauce;
    IFarm public immutable farm;
    PlainToken[POOLS] public lpTokens;
    address[] public actors;

    /// Emissions so far: each elapsed second at the farm's rate for that second.
    uint256 public emittedSauce;
    uint256 public emittedNative;
    /// Per pool, the SAUCE released to its stakers so far (scaled by 1e18): each second while the
    /// pool had stake, its allocation's share of the rate. Tighter than the emission: time with no
    /// stake releases nothing.
    uint256[POOLS] public releasedSauceE18;
    /// Per pool, the SAUCE its stakers were paid (minted to them by the pool's actions).
    uint256[POOLS] public paidSauce;
    /// Native coin sent to the farm so far.
    uint256 public funded;
    uint256 internal lastAccrued;
    string public violation;
    mapping(bytes32 => uint256) public calls;

    constructor() {
        sauce = ITestToken(deploy("TestToken.sol:TestToken", ""));
        sauce.initialize("SAUCE", "SAUCE", 6, address(this));
        farm = IFarm(deploy("Farm.sol:Farm", abi.encode(address(this), address(sauce))));
        sauce.addMinter(address(farm));
        for (uint256 i; i < ACTORS; ++i) {
            actors.push(makeAddr(string.concat("farmer", vm.toString(i))));
            // The farm mints SAUCE to its stakers: each associates with it first, as the ledger asks.
            vm.prank(actors[i]);
            sauce.associate();
        }
        for (uint256 pid; pid < POOLS; ++pid) {
            PlainToken lp = new PlainToken(string.concat("LP", vm.toString(pid)), 8);
            lpTokens[pid] = lp;
            for (uint256 i; i < ACTORS; ++i) {
                lp.mint(actors[i], FUNDS);
                vm.prank(actors[i]);
                lp.approve(address(farm), type(uint256).max);
            }
            farm.add(pid == 0 ? 100 : 50, address(lp));
        }
        farm.setEmissions(1e6, 1e15);
        fundFarm(1e18);
        lastAccrued = vm.getBlockTimestamp();
    }

    // --- actions ---

    function deposit(uint256 actorSeed, uint256 pidSeed, uint256 seed) external {
        accrue();
        address actor = actorOf(actorSeed);
        uint256 pid = pidSeed % POOLS;
        uint256 amount = seed % 8 == 0 ? 0 : amountUpTo(seed, lpTokens[pid].balanceOf(actor));
        uint256 before = sauce.balanceOf(actor);
        vm.prank(actor);
        try farm.deposit(pid, amount) {} catch (bytes memory reason) {
            note("deposit", reason);
        }
        paidSauce[pid] += sauce.balanceOf(actor) - before;
        ++calls[keccak256("deposit")];
    }

    function withdraw(uint256 actorSeed, uint256 pidSeed, uint256 seed) external {
        accrue();
        address actor = actorOf(actorSeed);
        uint256 pid = pidSeed % POOLS;
        (uint256 staked, , , ) = farm.userInfo(pid, actor);
        uint256 amount = seed % 8 == 0 ? 0 : amountUpTo(seed, staked);
        uint256 before = sauce.balanceOf(actor);
        vm.prank(actor);
        try farm.withdraw(pid, amount) {} catch (bytes memory reason) {
            note("withdraw", reason);
        }
        paidSauce[pid] += sauce.balanceOf(actor) - before;
        ++calls[keccak256("withdraw")];
    }

    function harvest(uint256 actorSeed, uint256 pidSeed) external {
        accrue();
        address actor = actorOf(actorSeed);
        uint256 pid = pidSeed % POOLS;
        uint256 before = sauce.balanceOf(actor);
        vm.prank(actor);
        try farm.harvest(pid) {} catch (bytes memory reason) {
            note("harvest", reason);
        }
        paidSauce[pid] += sauce.balanceOf(actor) - before;
        ++calls[keccak256("harvest")];
    }

    function emergencyWithdraw(uint256 actorSeed, uint256 pidSeed) external {
        accrue();
        vm.prank(actorOf(actorSeed));
        try farm.emergencyWithdraw(pidSeed % POOLS) {} catch (bytes memory reason) {
            note("emergencyWithdraw", reason);
        }
        ++calls[keccak256("emergencyWithdraw")];
    }

    function passTime(uint256 seconds_) external {
        accrue();
        vm.warp(vm.getBlockTimestamp() + bound(seconds_, 1, 3 days));
        ++calls[keccak256("passTime")];
    }

    function setEmissions(uint256 sauceRate, uint256 nativeRate) external {
        accrue();
        farm.setEmissions(bound(sauceRate, 0, 1e9), bound(nativeRate, 0, 1e16));
        ++calls[keccak256("setEmissions")];
    }

    function setAllocation(uint256 pidSeed, uint256 points) external {
        accrue();
        farm.set(pidSeed % POOLS, bound(points, 0, 1_000));
        ++calls[keccak256("setAllocation")];
    }

    function fund(uint256 amount) external {
        accrue();
        fundFarm(bound(amount, 1, 1e18));
        ++calls[keccak256("fund")];
    }

    // --- views for the invariants ---

    function actorList() external view returns (address[] memory) {
        return actors;
    }

    function lpToken(uint256 pid) external view returns (PlainToken) {
        return lpTokens[pid];
    }

    /// Emissions up to this block (the ghosts plus the seconds since the last action).
    function emittedNow() external view returns (uint256 sauce_, uint256 native) {
        uint256 elapsed = vm.getBlockTimestamp() - lastAccrued;
        return (emittedSauce + elapsed * farm.saucePerSecond(), emittedNative + elapsed * farm.nativePerSecond());
    }

    // --- internals ---

    /// Adds the seconds since the last action at the rates, allocations and stakes in force during
    /// them (none of which changes between actions).
    function accrue() internal {
        uint256 now_ = vm.getBlockTimestamp();
        uint256 elapsed = now_ - lastAccrued;
        emittedSauce += elapsed * farm.saucePerSecond();
        emittedNative += elapsed * farm.nativePerSecond();
        uint256 totalAlloc = farm.totalAllocPoint();
        for (uint256 pid; pid < POOLS; ++pid) {
            (, uint256 alloc, , , , uint256 staked) = farm.poolInfo(pid);
            if (staked == 0 || alloc == 0) continue;
            releasedSauceE18[pid] += (elapsed * farm.saucePerSecond() * alloc * 1e18) / totalAlloc;
        }
        lastAccrued = now_;
    }

    /// releasedSauceE18 of `pid` up to this block.
    function releasedNowE18(uint256 pid) external view returns (uint256) {
        uint256 elapsed = vm.getBlockTimestamp() - lastAccrued;
        (, uint256 alloc, , , , uint256 staked) = farm.poolInfo(pid);
        if (staked == 0 || alloc == 0) return releasedSauceE18[pid];
        return releasedSauceE18[pid] + (elapsed * farm.saucePerSecond() * alloc * 1e18) / farm.totalAllocPoint();
    }

    function fundFarm(uint256 amount) internal {
        vm.deal(address(farm), address(farm).balance + amount);
        funded += amount;
    }

    function actorOf(uint256 seed) internal view returns (address) {
        return actors[seed % ACTORS];
    }

    function note(string memory action, bytes memory reason) internal {
        if (bytes(violation).length == 0) violation = string.concat(action, " reverted with ", vm.toString(reason));
    }
}
