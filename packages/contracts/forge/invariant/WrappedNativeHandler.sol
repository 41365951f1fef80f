// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Cheats} from "../support/Test.sol";
import {IWrappedNative} from "../support/WrappedNativeInterface.sol";

/// Drives WrappedNative for three holders: deposits, withdrawals and transfers of any size.
contract WrappedNativeHandler is Cheats {
    uint256 internal constant ACTORS = 3;
    uint256 internal constant WEI_PER_TINYBAR = 1e10;

    IWrappedNative public immutable wrapped;
    address[] public actors;

    constructor() {
        wrapped = IWrappedNative(deploy("WrappedNative.sol:WrappedNative", ""));
        wrapped.initialize("Wrapped HBAR", "WHBAR", 8, address(wrapped));
        for (uint256 i; i < ACTORS; ++i) {
            address actor = makeAddr(string.concat("holder", vm.toString(i)));
            actors.push(actor);
            vm.deal(actor, 1e30);
            vm.prank(actor);
            wrapped.associate();
        }
    }

    function deposit(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 tinybar = amountUpTo(seed, actor.balance / WEI_PER_TINYBAR);
        vm.prank(actor);
        wrapped.deposit{value: tinybar * WEI_PER_TINYBAR}();
    }

    function withdraw(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 amount = amountUpTo(seed, wrapped.balanceOf(actor));
        vm.prank(actor);
        wrapped.withdraw(amount);
    }

    function transfer(uint256 actorSeed, uint256 toSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 amount = amountUpTo(seed, wrapped.balanceOf(actor));
        vm.prank(actor);
        require(wrapped.transfer(actorOf(toSeed), amount), "transfer returned false");
    }

    function actorList() external view returns (address[] memory) {
        return actors;
    }

    function actorOf(uint256 seed) internal view returns (address) {
        return actors[seed % ACTORS];
    }
}
