// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Test} from "../support/Test.sol";
import {IWrappedNative} from "../support/WrappedNativeInterface.sol";
import {WrappedNativeHandler} from "./WrappedNativeHandler.sol";

/// Under any sequence of deposits, withdrawals and transfers, every unit of WHBAR is backed by
/// exactly 1e10 of the native coin held, and the holders' balances add up to the supply.
contract WrappedNativeInvariantTest is Test {
    WrappedNativeHandler internal handler;

    function setUp() public {
        handler = new WrappedNativeHandler();
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](3);
        selectors[0] = WrappedNativeHandler.deposit.selector;
        selectors[1] = WrappedNativeHandler.withdraw.selector;
        selectors[2] = WrappedNativeHandler.transfer.selector;
        targetSelector(address(handler), selectors);
    }

    function invariant_supplyIsBackedExactlyByTheNativeCoinHeld() public view {
        IWrappedNative wrapped = handler.wrapped();
        assertEq(wrapped.totalSupply() * 1e10, address(wrapped).balance, "supply * 1e10 against the native coin held");
        address[] memory actors = handler.actorList();
        uint256 sum;
        for (uint256 i; i < actors.length; ++i) {
            sum += wrapped.balanceOf(actors[i]);
        }
        assertEq(sum, wrapped.totalSupply(), "balances add up to the supply");
    }
}
