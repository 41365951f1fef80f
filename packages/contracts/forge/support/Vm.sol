// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The few forge cheatcodes these suites call (the interface forge serves at VM_ADDRESS), declared
/// here rather than taken from forge-std. Signatures must match forge's exactly.
interface Vm {
    /// One log recorded since `recordLogs`.
    struct Log {
        bytes32[] topics;
        bytes data;
        address emitter;
    }

    /// The next call (only) comes from `sender`.
    function prank(address sender) external;
    /// Every call until stopPrank comes from `sender`.
    function startPrank(address sender) external;
    function stopPrank() external;
    /// Sets block.timestamp.
    function warp(uint256 timestamp) external;
    /// block.timestamp as the EVM sees it now (via-IR may reuse an earlier TIMESTAMP read).
    function getBlockTimestamp() external view returns (uint256);
    /// Sets the native balance of `account`.
    function deal(address account, uint256 balance) external;
    /// The next call must revert (with any data / this selector / exactly this data).
    function expectRevert() external;
    function expectRevert(bytes4 selector) external;
    function expectRevert(bytes calldata data) external;
    /// Deploys a contract from forge's build output ("File.sol:Contract"), as the caller.
    function deployCode(string calldata artifact, bytes calldata constructorArgs) external returns (address);
    /// Writes one storage slot of `target` (a state written by older code, say).
    function store(address target, bytes32 slot, bytes32 value) external;
    /// Discards the fuzz input when false.
    function assume(bool condition) external;
    /// Names an address in traces.
    function label(address account, string calldata name) external;
    /// The address of a private key.
    function addr(uint256 privateKey) external pure returns (address);
    /// A secp256k1 signature of `digest` by `privateKey` (low s, v of 27 or 28).
    function sign(uint256 privateKey, bytes32 digest) external pure returns (uint8 v, bytes32 r, bytes32 s);
    /// Starts recording every log emitted, for `getRecordedLogs`.
    function recordLogs() external;
    /// The logs recorded since `recordLogs` or the last call of this, which it consumes.
    function getRecordedLogs() external returns (Log[] memory logs);
    function toString(uint256 value) external pure returns (string memory);
    function toString(int256 value) external pure returns (string memory);
    function toString(address value) external pure returns (string memory);
    /// 0x-prefixed hex.
    function toString(bytes calldata value) external pure returns (string memory);
}
