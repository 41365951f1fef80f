// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IERC20} from "./interfaces/IERC20.sol";
import {IPairFactory, IPairSwap} from "./interfaces/IPairs.sol";
import {OrderHashing} from "./lib/OrderHashing.sol";
import {OrderSignatures} from "./lib/OrderSignatures.sol";
import {Fill, PartialFillLimitOrder, PoolFill, SignedOrder} from "./lib/OrderTypes.sol";

/// Settles the fills the exchange's off-chain engine matched, and is the source of truth for
/// order state: how much of each order is filled, which orders are cancelled, and each swapper's
/// nonce floor.
///
/// Every fill is checked against both signed orders: the signature (verified once per order
/// hash), the reactor, the deadline, the swapper's nonce floor and cancellations, the tokens, the
/// roles (`makerOnly` never takes, `takerOnce` takes once), the signed limit price over all the
/// order's fills, the fee caps and the signed input amount. A fill that fails any check, or whose
/// transfers fail, is skipped with a `FillRejected` event and the rest of the batch settles.
///
/// A pool fill is a taker's swap with the AMM pair of its tokens (found through the factory the
/// owner set, never named by the operator), checked against the taker's order the same way; the
/// pair's own invariant is the maker's limit, so a pool that moved since the engine priced the
/// swap refuses it (`PoolMoved`) and only that fill is skipped.
///
/// Rounding: the operator states both amounts of a fill; the contract checks them exactly
/// (integer cross-multiplication, nothing rounded). The limit price holds for what an order has
/// paid and received in all its fills together, not for each fill alone: where one size step at
/// one tick is a fraction of a raw unit, a fill's amount is rounded, and an order that received
/// a fraction more in one fill may receive that fraction less in another, never less than its
/// signed rate over all. Fees are rates in pips (1e-6) of what each side receives: the taker's
/// fee rounds up and the maker's down, both against the taker.
contract PartialFillLimitOrderReactor {
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
        PoolMoved
    }

    /// Whose order a rejected fill is blamed on; `None` when neither signed order is at fault.
    enum Party {
        None,
        Maker,
        Taker
    }

    /// What became of one fill of a `settle` call.
    struct Outcome {
        Reject reason;
        Party party;
    }

    error NotOwner();
    error NotOperator();
    error NotSelf();
    error TransferFailed(bool maker);
    error PoolRefused();

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
    event FillRejected(
        uint64 indexed fillId, bytes32 indexed makerHash, bytes32 indexed takerHash, Reject reason, Party party
    );
    event PoolFilled(
        uint64 indexed fillId,
        bytes32 indexed takerHash,
        address indexed pair,
        address taker,
        uint256 amountIn,
        uint256 amountOut,
        uint256 takerFee
    );
    event OrderCancelled(bytes32 indexed orderHash, address indexed swapper, address indexed by);
    event NonceFloorRaised(address indexed swapper, uint256 nonceFloor, address indexed by);
    event OperatorChanged(address operator);
    event FeeRecipientChanged(address feeRecipient);
    event PairFactoryChanged(address pairFactory);

    uint256 internal constant PIPS = 1_000_000;
    /// Amounts stay below 2^128 so every price and fee product fits in 256 bits.
    uint256 internal constant MAX_AMOUNT = type(uint128).max;
    uint256 private constant VERIFIED = 1;
    uint256 private constant HAS_TAKEN = 2;
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    address public immutable owner;
    bytes32 private immutable nameHash;
    bytes32 private immutable versionHash;
    uint256 private immutable deployChainId;
    bytes32 private immutable deployDomainSeparator;

    /// What an order has paid (input token) and received (output token, before fees) in all its
    /// fills; both stay below 2^128 (`MAX_AMOUNT`), so one storage slot holds them.
    struct Progress {
        uint128 paid;
        uint128 received;
    }

    address public operator;
    address public feeRecipient;
    /// Each order's progress, per order hash; its first half is what earlier versions called `filled`.
    mapping(bytes32 => Progress) public progress;
    mapping(address => mapping(bytes32 => bool)) public cancelled;
    /// Orders with a nonce below their swapper's floor are void.
    mapping(address => uint256) public nonceFloor;
    mapping(bytes32 => uint256) private orderFlags;
    /// One bit per settled fill id.
    mapping(uint256 => uint256) private settledFillWords;
    /// The AMM factory whose pairs pool fills swap with; none until the owner sets it. Declared last
    /// so the storage slots above keep their places.
    address public pairFactory;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    constructor(string memory name, string memory version, address operator_, address feeRecipient_) {
        owner = msg.sender;
        nameHash = keccak256(bytes(name));
        versionHash = keccak256(bytes(version));
        deployChainId = block.chainid;
        deployDomainSeparator = computeDomainSeparator();
        operator = operator_;
        feeRecipient = feeRecipient_;
    }

    function setOperator(address operator_) external onlyOwner {
        operator = operator_;
        emit OperatorChanged(operator_);
    }

    function setFeeRecipient(address feeRecipient_) external onlyOwner {
        feeRecipient = feeRecipient_;
        emit FeeRecipientChanged(feeRecipient_);
    }

    function setPairFactory(address pairFactory_) external onlyOwner {
        pairFactory = pairFactory_;
        emit PairFactoryChanged(pairFactory_);
    }

    function domainSeparator() public view returns (bytes32) {
        return block.chainid == deployChainId ? deployDomainSeparator : computeDomainSeparator();
    }

    /// The EIP-712 digest a swapper signs for `order`.
    function orderDigest(PartialFillLimitOrder calldata order) public view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", domainSeparator(), OrderHashing.hash(order)));
    }

    /// Input-token amount an order has paid so far.
    function filled(bytes32 orderHash) external view returns (uint256) {
        return progress[orderHash].paid;
    }

    function isFillSettled(uint64 fillId) public view returns (bool) {
        return settledFillWords[fillId >> 8] & (1 << (fillId & 0xff)) != 0;
    }

    /// Settles matched pairs, then pool fills, and returns one outcome per fill followed by one per
    /// pool fill (reason `None` when it settled), so a simulation tells the operator which would
    /// fail, and whose order is at fault, before it sends the batch.
    function settle(SignedOrder[] calldata orders, Fill[] calldata fills, PoolFill[] calldata poolFills)
        external
        onlyOperator
        returns (Outcome[] memory outcomes)
    {
        bytes32[] memory digests = new bytes32[](orders.length);
        Reject[] memory states = new Reject[](orders.length);
        for (uint256 i = 0; i < orders.length; i++) {
            digests[i] = orderDigest(orders[i].order);
            states[i] = checkOrder(orders[i], digests[i]);
        }
        outcomes = new Outcome[](fills.length + poolFills.length);
        for (uint256 i = 0; i < fills.length; i++) {
            outcomes[i] = settleOne(orders, digests, states, fills[i]);
        }
        for (uint256 i = 0; i < poolFills.length; i++) {
            outcomes[fills.length + i] = settlePoolFill(orders, digests, states, poolFills[i]);
        }
    }

    /// The swapper cancels its own orders by hash.
    function cancel(bytes32[] calldata orderHashes) external {
        cancelOrders(msg.sender, orderHashes);
    }

    /// The operator cancels a swapper's orders (the service's `POST /cancel`).
    function cancelFor(address swapper, bytes32[] calldata orderHashes) external onlyOperator {
        cancelOrders(swapper, orderHashes);
    }

    /// The swapper voids every order with a nonce below `floor`. The floor only rises.
    function cancelAll(uint256 floor) external {
        raiseNonceFloor(msg.sender, floor);
    }

    /// The operator raises a swapper's nonce floor (the service's `POST /cancel/all`).
    function cancelAllFor(address swapper, uint256 floor) external onlyOperator {
        raiseNonceFloor(swapper, floor);
    }

    /// Frees what the reactor recorded for orders past their deadline: the filled amount, the flags
    /// and the swapper's cancellation. `checkOrder` refuses an expired order before it reads any of
    /// them, so they are dead storage; without this, state grows with every order ever settled or
    /// cancelled. Anyone may call it; an order not expired yet is left as it is.
    function forgetExpired(PartialFillLimitOrder[] calldata orders) external {
        for (uint256 i = 0; i < orders.length; i++) {
            PartialFillLimitOrder calldata order = orders[i];
            if (order.info.deadline >= block.timestamp) continue;
            bytes32 digest = orderDigest(order);
            delete progress[digest];
            delete orderFlags[digest];
            delete cancelled[order.info.swapper][digest];
        }
    }

    /// Moves the tokens of one fill; reverts as a whole, so a failed transfer leaves no trace.
    /// External only so `settle` can contain its failure.
    function transferFill(
        address maker,
        address taker,
        address makerToken,
        address takerToken,
        address makerRecipient,
        address takerRecipient,
        uint256[4] calldata amounts
    ) external {
        if (msg.sender != address(this)) revert NotSelf();
        // amounts: maker pays, taker pays, maker's fee, taker's fee
        pull(makerToken, maker, takerRecipient, amounts[0] - amounts[3], true);
        pull(makerToken, maker, feeRecipient, amounts[3], true);
        pull(takerToken, taker, makerRecipient, amounts[1] - amounts[2], false);
        pull(takerToken, taker, feeRecipient, amounts[2], false);
    }

    /// Moves the tokens of one pool fill: the taker's input into the pair, the pair's output to the
    /// reactor and on to the taker and the fee recipient; reverts as a whole. External only so
    /// `settle` can contain its failure.
    function transferPoolFill(PartialFillLimitOrder calldata taker, address pair, uint256[3] calldata amounts)
        external
    {
        if (msg.sender != address(this)) revert NotSelf();
        // amounts: taker pays, pair pays, taker's fee
        pull(taker.input.token, taker.info.swapper, pair, amounts[0], false);
        bool outIsToken0 = taker.output.token < taker.input.token;
        try IPairSwap(pair).swap(outIsToken0 ? amounts[1] : 0, outIsToken0 ? 0 : amounts[1], address(this)) {}
        catch {
            revert PoolRefused();
        }
        push(taker.output.token, taker.output.recipient, amounts[1] - amounts[2]);
        push(taker.output.token, feeRecipient, amounts[2]);
    }

    function computeDomainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, nameHash, versionHash, block.chainid, address(this)));
    }

    function checkOrder(SignedOrder calldata signed, bytes32 digest) private returns (Reject) {
        PartialFillLimitOrder calldata order = signed.order;
        address swapper = order.info.swapper;
        if (order.info.reactor != address(this)) return Reject.WrongReactor;
        if (order.info.deadline < block.timestamp) return Reject.Expired;
        if (order.info.nonce < nonceFloor[swapper]) return Reject.NonceBelowFloor;
        if (cancelled[swapper][digest]) return Reject.Cancelled;
        if (order.info.additionalValidationContract != address(0)) return Reject.ValidationContract;
        if (order.input.amount > MAX_AMOUNT || order.output.amount > MAX_AMOUNT) return Reject.AmountTooLarge;
        if (orderFlags[digest] & VERIFIED == 0) {
            if (!OrderSignatures.isValid(signed.signature, digest, swapper)) return Reject.BadSignature;
            orderFlags[digest] |= VERIFIED;
        }
        return Reject.None;
    }

    function settleOne(
        SignedOrder[] calldata orders,
        bytes32[] memory digests,
        Reject[] memory states,
        Fill calldata fill
    ) private returns (Outcome memory outcome) {
        if (fill.maker >= orders.length || fill.taker >= orders.length) {
            return rejected(fill.fillId, bytes32(0), bytes32(0), Outcome(Reject.BadIndex, Party.None));
        }
        bytes32 makerHash = digests[fill.maker];
        bytes32 takerHash = digests[fill.taker];
        if (isFillSettled(fill.fillId)) outcome = Outcome(Reject.AlreadySettled, Party.None);
        else if (states[fill.maker] != Reject.None) outcome = Outcome(states[fill.maker], Party.Maker);
        else if (states[fill.taker] != Reject.None) outcome = Outcome(states[fill.taker], Party.Taker);
        else outcome = checkFill(orders[fill.maker].order, orders[fill.taker].order, fill, makerHash, takerHash);
        if (outcome.reason == Reject.None) {
            outcome = execute(orders[fill.maker].order, orders[fill.taker].order, fill, makerHash, takerHash);
        }
        if (outcome.reason != Reject.None) return rejected(fill.fillId, makerHash, takerHash, outcome);
        record(makerHash, fill.makerAmount, fill.takerAmount);
        recordTaken(fill.fillId, takerHash, fill.takerAmount, fill.makerAmount);
    }

    function settlePoolFill(
        SignedOrder[] calldata orders,
        bytes32[] memory digests,
        Reject[] memory states,
        PoolFill calldata poolFill
    ) private returns (Outcome memory outcome) {
        if (poolFill.taker >= orders.length) {
            return rejected(poolFill.fillId, bytes32(0), bytes32(0), Outcome(Reject.BadIndex, Party.None));
        }
        PartialFillLimitOrder calldata taker = orders[poolFill.taker].order;
        bytes32 takerHash = digests[poolFill.taker];
        address pair = pairFactory == address(0)
            ? address(0)
            : IPairFactory(pairFactory).getPair(taker.input.token, taker.output.token);
        if (isFillSettled(poolFill.fillId)) outcome = Outcome(Reject.AlreadySettled, Party.None);
        else if (states[poolFill.taker] != Reject.None) outcome = Outcome(states[poolFill.taker], Party.Taker);
        else if (pair == address(0)) outcome = Outcome(Reject.NoPool, Party.None);
        else outcome = checkPoolFill(taker, poolFill, takerHash);
        if (outcome.reason == Reject.None) outcome = executePoolFill(taker, poolFill, takerHash, pair);
        if (outcome.reason != Reject.None) return rejected(poolFill.fillId, bytes32(0), takerHash, outcome);
        recordTaken(poolFill.fillId, takerHash, poolFill.amountIn, poolFill.amountOut);
    }

    /// Reports a skipped fill (or pool fill) and returns its outcome.
    function rejected(uint64 fillId, bytes32 makerHash, bytes32 takerHash, Outcome memory outcome)
        private
        returns (Outcome memory)
    {
        emit FillRejected(fillId, makerHash, takerHash, outcome.reason, outcome.party);
        return outcome;
    }

    /// Adds a settled fill to an order's progress. Every amount was checked against the order's
    /// input amount or `MAX_AMOUNT` first, so both sums stay below 2^128.
    function record(bytes32 orderHash, uint256 paid, uint256 received) private {
        Progress storage state = progress[orderHash];
        state.paid += uint128(paid);
        state.received += uint128(received);
    }

    /// What a settled fill leaves: the taker's progress, its having taken, and the fill id used.
    function recordTaken(uint64 fillId, bytes32 takerHash, uint256 takerPaid, uint256 takerReceived) private {
        record(takerHash, takerPaid, takerReceived);
        orderFlags[takerHash] |= HAS_TAKEN;
        settledFillWords[fillId >> 8] |= 1 << (fillId & 0xff);
    }

    /// Whether an order can receive `amount` more and keep its total within `MAX_AMOUNT` (what it pays
    /// never passes its input amount): so every product of the rate check fits in 256 bits.
    function receivable(bytes32 orderHash, uint256 amount) private view returns (bool) {
        return amount <= MAX_AMOUNT - progress[orderHash].received;
    }

    /// Whether an order that has paid `paid` more and received `received` more still gets at least
    /// its signed rate over all its fills: received · input ≥ output · paid, exactly.
    function withinRate(PartialFillLimitOrder calldata order, bytes32 orderHash, uint256 paid, uint256 received)
        private
        view
        returns (bool)
    {
        Progress storage state = progress[orderHash];
        return (state.received + received) * order.input.amount >= order.output.amount * (state.paid + paid);
    }

    function checkPoolFill(PartialFillLimitOrder calldata taker, PoolFill calldata poolFill, bytes32 takerHash)
        private
        view
        returns (Outcome memory)
    {
        if (poolFill.amountIn == 0 || poolFill.amountOut == 0) return Outcome(Reject.ZeroAmount, Party.None);
        if (taker.makerOnly) return Outcome(Reject.MakerOnly, Party.Taker);
        if (taker.takerOnce && orderFlags[takerHash] & HAS_TAKEN != 0) return Outcome(Reject.TakerOnce, Party.Taker);
        if (poolFill.amountIn > taker.input.amount - progress[takerHash].paid) {
            return Outcome(Reject.TakerOverfill, Party.Taker);
        }
        if (!receivable(takerHash, poolFill.amountOut)) return Outcome(Reject.AmountTooLarge, Party.None);
        // The operator priced the swap; a price it states wrongly is no fault of the signer.
        if (!withinRate(taker, takerHash, poolFill.amountIn, poolFill.amountOut)) return Outcome(Reject.TakerPrice, Party.None);
        if (poolFill.takerFeePips > taker.maxTakerFeePips || poolFill.takerFeePips > PIPS) {
            return Outcome(Reject.TakerFeeCap, Party.Taker);
        }
        return Outcome(Reject.None, Party.None);
    }

    function executePoolFill(
        PartialFillLimitOrder calldata taker,
        PoolFill calldata poolFill,
        bytes32 takerHash,
        address pair
    ) private returns (Outcome memory) {
        // Amounts above MAX_AMOUNT are refused as overfills, so this product fits.
        uint256 takerFee = (poolFill.amountOut * poolFill.takerFeePips + PIPS - 1) / PIPS;
        try this.transferPoolFill(taker, pair, [poolFill.amountIn, poolFill.amountOut, takerFee]) {
            emit PoolFilled(
                poolFill.fillId,
                takerHash,
                pair,
                taker.info.swapper,
                poolFill.amountIn,
                poolFill.amountOut,
                takerFee
            );
            return Outcome(Reject.None, Party.None);
        } catch (bytes memory failure) {
            if (failure.length == 4 && bytes4(failure) == PoolRefused.selector) {
                return Outcome(Reject.PoolMoved, Party.None);
            }
            return transferFailure(failure);
        }
    }

    function checkFill(
        PartialFillLimitOrder calldata maker,
        PartialFillLimitOrder calldata taker,
        Fill calldata fill,
        bytes32 makerHash,
        bytes32 takerHash
    ) private view returns (Outcome memory) {
        if (makerHash == takerHash) return Outcome(Reject.SameOrder, Party.None);
        if (maker.input.token != taker.output.token || maker.output.token != taker.input.token) {
            return Outcome(Reject.TokenMismatch, Party.None);
        }
        // One side may move nothing (a fraction of a raw unit rounded away); the rate check below
        // still holds each side to its signed rate over all its fills.
        if (fill.makerAmount == 0 && fill.takerAmount == 0) return Outcome(Reject.ZeroAmount, Party.None);
        if (taker.makerOnly) return Outcome(Reject.MakerOnly, Party.Taker);
        if (taker.takerOnce && orderFlags[takerHash] & HAS_TAKEN != 0) return Outcome(Reject.TakerOnce, Party.Taker);
        // What an order paid never exceeds its input amount, so these subtractions cannot underflow.
        if (fill.makerAmount > maker.input.amount - progress[makerHash].paid) return Outcome(Reject.MakerOverfill, Party.Maker);
        if (fill.takerAmount > taker.input.amount - progress[takerHash].paid) return Outcome(Reject.TakerOverfill, Party.Taker);
        if (!receivable(makerHash, fill.takerAmount) || !receivable(takerHash, fill.makerAmount)) {
            return Outcome(Reject.AmountTooLarge, Party.None);
        }
        // Each side receives at least its signed rate over all its fills. The operator states the
        // amounts: amounts that break a rate are its own mistake, never the signer's.
        if (!withinRate(maker, makerHash, fill.makerAmount, fill.takerAmount)) return Outcome(Reject.MakerPrice, Party.None);
        if (!withinRate(taker, takerHash, fill.takerAmount, fill.makerAmount)) return Outcome(Reject.TakerPrice, Party.None);
        if (fill.makerFeePips > maker.maxMakerFeePips || fill.makerFeePips > PIPS) {
            return Outcome(Reject.MakerFeeCap, Party.Maker);
        }
        if (fill.takerFeePips > taker.maxTakerFeePips || fill.takerFeePips > PIPS) {
            return Outcome(Reject.TakerFeeCap, Party.Taker);
        }
        return Outcome(Reject.None, Party.None);
    }

    function execute(
        PartialFillLimitOrder calldata maker,
        PartialFillLimitOrder calldata taker,
        Fill calldata fill,
        bytes32 makerHash,
        bytes32 takerHash
    ) private returns (Outcome memory) {
        uint256 makerFee = fill.takerAmount * fill.makerFeePips / PIPS;
        uint256 takerFee = (fill.makerAmount * fill.takerFeePips + PIPS - 1) / PIPS;
        try this.transferFill(
            maker.info.swapper,
            taker.info.swapper,
            maker.input.token,
            taker.input.token,
            maker.output.recipient,
            taker.output.recipient,
            [fill.makerAmount, fill.takerAmount, makerFee, takerFee]
        ) {
            emit Filled(
                fill.fillId,
                makerHash,
                takerHash,
                maker.info.swapper,
                taker.info.swapper,
                fill.makerAmount,
                fill.takerAmount,
                makerFee,
                takerFee
            );
            return Outcome(Reject.None, Party.None);
        } catch (bytes memory failure) {
            return transferFailure(failure);
        }
    }

    /// The side a failed `transferFill` blames, or `TransferReverted` when it failed otherwise
    /// (out of gas, say) and neither side is known to be at fault.
    function transferFailure(bytes memory failure) private pure returns (Outcome memory) {
        if (failure.length != 36 || bytes4(failure) != TransferFailed.selector) {
            return Outcome(Reject.TransferReverted, Party.None);
        }
        bool maker;
        assembly {
            maker := mload(add(failure, 36))
        }
        return maker ? Outcome(Reject.MakerTransfer, Party.Maker) : Outcome(Reject.TakerTransfer, Party.Taker);
    }

    function pull(address token, address from, address to, uint256 amount, bool maker) private {
        if (amount == 0) return;
        (bool ok, bytes memory result) = token.call(abi.encodeCall(IERC20.transferFrom, (from, to, amount)));
        // Tokens that return nothing succeed by not reverting; the rest must return true.
        if (!ok || (result.length != 0 && (result.length != 32 || !abi.decode(result, (bool)))) || token.code.length == 0) {
            revert TransferFailed(maker);
        }
    }

    /// Pays out tokens the reactor holds (a pair's output on its way to the taker).
    function push(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        (bool ok, bytes memory result) = token.call(abi.encodeCall(IERC20.transfer, (to, amount)));
        if (!ok || (result.length != 0 && (result.length != 32 || !abi.decode(result, (bool))))) {
            revert TransferFailed(false);
        }
    }

    function cancelOrders(address swapper, bytes32[] calldata orderHashes) private {
        for (uint256 i = 0; i < orderHashes.length; i++) {
            if (cancelled[swapper][orderHashes[i]]) continue;
            cancelled[swapper][orderHashes[i]] = true;
            emit OrderCancelled(orderHashes[i], swapper, msg.sender);
        }
    }

    function raiseNonceFloor(address swapper, uint256 floor) private {
        if (floor <= nonceFloor[swapper]) return;
        nonceFloor[swapper] = floor;
        emit NonceFloorRaised(swapper, floor, msg.sender);
    }
}
