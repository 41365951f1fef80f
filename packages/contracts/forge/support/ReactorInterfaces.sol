// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Fill, PartialFillLimitOrder, PoolFill, SignedOrder} from "../../src/lib/OrderTypes.sol";

// The reactor as the suites see them: deployed from the via-IR build of src/ (Cheats.deploy) and
// called through this interface, so the suites compile in the fast profile (see AmmInterfaces.sol).

/// PartialFillLimitOrderReactor.Reject, member for member (test/reactor.test.ts pins the order).
enum Reject {
    None,
    AlreadySettled,
    BadIndex,
    SameOrder,
    WrongReactor,
    Expired,
    NonceBelowFloor,
    Cancelled,
    BadSignature,
    ValidationContract,
    AmountTooLarge,
    TokenMismatch,
    MakerOnly,
    TakerOnce,
    ZeroAmount,
    MakerOverfill,
    TakerOverfill,
    MakerPrice,
    TakerPrice,
    MakerFeeCap,
    TakerFeeCap,
    MakerTransfer,
    TakerTransfer,
    TransferReverted,
    NoPool,
    PoolMoved,
    MakerRefused,
    TakerRefused,
    FeeRefused,
    PoolFailed,
    KeyServiceFailed,
    BadRebate
}

/// PartialFillLimitOrderReactor.Party.
enum Party {
    None,
    Maker,
    Taker
}

/// PartialFillLimitOrderReactor.Role.
enum Role {
    Owner,
    Operator,
    FeeRecipient,
    PairFactory
}

/// src/PartialFillLimitOrderReactor.sol. `settle` returns its outcomes as raw uint8 pairs (the ABI
/// of `Outcome {Reject; Party}`), so a reason added to the contract later never makes decoding
/// revert here.
interface IReactor {
    struct RawOutcome {
        uint8 reason;
        uint8 party;
    }

    error NotOwner();
    error NotOperator();
    error NotSelf();
    error Locked();
    error NoChangeReady();

    event TakerFill(
        bytes32 indexed orderHash,
        address indexed filler,
        address indexed swapper,
        uint256 nonce,
        uint256 principalFilled,
        uint256 outputAmount,
        uint256 takerFee
    );
    event MakerFill(
        bytes32 indexed orderHash,
        address indexed filler,
        address indexed swapper,
        uint256 nonce,
        uint256 principalFilled,
        uint256 outputAmount,
        uint256 makerFee,
        uint256 rebate
    );
    event Filled(
        uint64 indexed fillId,
        bytes32 indexed makerHash,
        bytes32 indexed takerHash,
        address maker,
        address taker,
        uint256 makerAmount,
        uint256 takerAmount,
        uint256 makerFee,
        uint256 takerFee
    );
    event PoolFilled(
        uint64 indexed fillId,
        bytes32 indexed takerHash,
        address indexed pair,
        address taker,
        uint256 amountIn,
        uint256 amountOut,
        uint256 takerFee,
        uint256 feeCollected
    );

    function owner() external view returns (address);
    function operator() external view returns (address);
    function feeRecipient() external view returns (address);
    function pairFactory() external view returns (address);
    function changeDelay() external view returns (uint256);
    function pendingChange(Role role) external view returns (address holder, uint64 readyAt);
    function proposeRole(Role role, address holder) external;
    function acceptRole(Role role) external;

    function orderDigest(PartialFillLimitOrder calldata order) external view returns (bytes32);
    function filled(bytes32 orderHash) external view returns (uint256);
    function progress(bytes32 orderHash) external view returns (uint128 paid, uint128 received);
    function cancelled(address swapper, bytes32 orderHash) external view returns (bool);
    function swapperFloor(address swapper) external view returns (uint256);
    function operatorFloor(address swapper) external view returns (uint256);
    function nonceFloor(address swapper) external view returns (uint256);
    function isFillSettled(uint64 fillId) external view returns (bool);

    function settle(SignedOrder[] calldata orders, Fill[] calldata fills, PoolFill[] calldata poolFills)
        external
        returns (RawOutcome[] memory outcomes);
    function cancel(bytes32[] calldata orderHashes) external;
    function cancelFor(address swapper, bytes32[] calldata orderHashes) external;
    function cancelAll(uint256 floor) external;
    function cancelAllFor(address swapper, uint256 floor) external;
    function forgetExpired(PartialFillLimitOrder[] calldata orders) external;
}
