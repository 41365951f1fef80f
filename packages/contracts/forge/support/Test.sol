// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Vm} from "./Vm.sol";

/// The cheatcodes and input helpers that tests and invariant handlers share.
abstract contract Cheats {
    /// Where forge serves the cheatcodes: 0x7109709ECfa91a80626fF3989D68f67F5b1D12D9.
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

    /// Deploys `artifact` ("File.sol:Contract") with ABI-encoded constructor `args` from forge's build
    /// output. The suites deploy src/ contracts this way rather than with `new`: a `new X` embeds X's
    /// creation code, which via IR is optimised again inside every contract that creates X, and
    /// doubled the cold build of these suites; this way src/ is built once, as compile.mjs builds it.
    function deploy(string memory artifact, bytes memory args) internal returns (address deployed) {
        deployed = vm.deployCode(artifact, args);
    }

    /// A labelled address derived from `name` (also its private key's seed).
    function makeAddr(string memory name) internal returns (address account) {
        account = vm.addr(uint256(keccak256(bytes(name))));
        vm.label(account, name);
    }

    /// `x` mapped into [min, max]: values already inside stay as they are, others wrap around.
    function bound(uint256 x, uint256 min, uint256 max) internal pure returns (uint256) {
        require(min <= max, "bound: min > max");
        if (x >= min && x <= max) return x;
        uint256 size = max - min;
        if (size == type(uint256).max) return x;
        return min + (x % (size + 1));
    }

    /// An amount in [1, max] spread over magnitudes: the low byte of `seed` picks how many bits
    /// to drop from `max` first, so units, thousands and near-max amounts all come up (0 when max is 0).
    function amountUpTo(uint256 seed, uint256 max) internal pure returns (uint256) {
        if (max == 0) return 0;
        uint256 cap = max >> (seed % 64);
        return bound(seed >> 8, 1, cap == 0 ? 1 : cap);
    }
}

/// The base of every forge suite here: the cheatcodes, assertions that revert with both values in
/// the message, fuzz-input bounding, and the target lists forge's invariant runner reads.
abstract contract Test is Cheats {
    /// What forge's invariant runner reads from `targetSelectors()`.
    struct FuzzSelector {
        address addr;
        bytes4[] selectors;
    }

    address[] private targetedContracts;
    FuzzSelector[] private targetedSelectors;
    address[] private targetedSenders;

    // --- invariant targets (forge calls the public getters) ---

    /// The invariant runner calls only these contracts (all deployed ones when none is named).
    function targetContract(address target) internal {
        targetedContracts.push(target);
    }

    /// Of `target`, the runner calls only `selectors`.
    function targetSelector(address target, bytes4[] memory selectors) internal {
        targetedSelectors.push(FuzzSelector(target, selectors));
    }

    /// The runner sends its calls only from these addresses (random ones when none is named).
    function targetSender(address sender) internal {
        targetedSenders.push(sender);
    }

    function targetContracts() public view returns (address[] memory) {
        return targetedContracts;
    }

    function targetSelectors() public view returns (FuzzSelector[] memory) {
        return targetedSelectors;
    }

    function targetSenders() public view returns (address[] memory) {
        return targetedSenders;
    }

    // --- assertions: each reverts with `message: <left> <relation> <right>` ---

    function fail(string memory message) internal pure {
        revert(message);
    }

    function assertTrue(bool condition, string memory message) internal pure {
        if (!condition) revert(message);
    }

    function assertFalse(bool condition, string memory message) internal pure {
        if (condition) revert(message);
    }

    function assertEq(uint256 left, uint256 right, string memory message) internal pure {
        if (left != right) revert(compared(message, left, " != ", right));
    }

    function assertEq(address left, address right, string memory message) internal pure {
        if (left != right) revert(string.concat(message, ": ", vm.toString(left), " != ", vm.toString(right)));
    }

    function assertEq(bool left, bool right, string memory message) internal pure {
        if (left != right) revert(string.concat(message, left ? ": true != false" : ": false != true"));
    }

    function assertLe(uint256 left, uint256 right, string memory message) internal pure {
        if (left > right) revert(compared(message, left, " > ", right));
    }

    function assertGe(uint256 left, uint256 right, string memory message) internal pure {
        if (left < right) revert(compared(message, left, " < ", right));
    }

    function assertLt(uint256 left, uint256 right, string memory message) internal pure {
        if (left >= right) revert(compared(message, left, " >= ", right));
    }

    function assertGt(uint256 left, uint256 right, string memory message) internal pure {
        if (left <= right) revert(compared(message, left, " <= ", right));
    }

    /// |left - right| <= tolerance.
    function assertApproxEq(uint256 left, uint256 right, uint256 tolerance, string memory message) internal pure {
        uint256 gap = left > right ? left - right : right - left;
        if (gap > tolerance) {
            revert(string.concat(compared(message, left, " !~ ", right), " (tolerance ", vm.toString(tolerance), ")"));
        }
    }

    function compared(string memory message, uint256 left, string memory relation, uint256 right)
        private
        pure
        returns (string memory)
    {
        return string.concat(message, ": ", vm.toString(left), relation, vm.toString(right));
    }
}
