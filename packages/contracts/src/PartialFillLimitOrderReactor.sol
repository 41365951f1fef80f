// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "./amm/AmmMath.sol";
import {IAllowanceTransfer} from "./interfaces/IAllowanceTransfer.sol";
import {IERC20} from "./interfaces/IERC20.sol";
import {IPairFactory, IPairSwap} from "./interfaces/IPairs.sol";
import {OrderHashing} from "./lib/OrderHashing.sol";
import {OrderSignatures, SignatureCheck} from "./lib/OrderSignatures.sol";
import {Fill, PartialFillLimitOrder, PoolFill, SignedOrder} from "./lib/OrderTypes.sol";

/// Settles the fills the exchange's off-chain engine matched, and is the source of truth for
/// order state: how much of each order is filled, which orders are cancelled, and each swapper's
/// nonce floor.
///
/// Each fill goes through the same stages: resolve (each signed order checked once per batch:
/// signature, reactor, deadline, floor, cancellation), validate (the fill against both orders:
/// tokens, roles, amounts, the signed rates over all the order's fills, the fee caps), then, in
/// one call that reverts as a whole, record (progress and the fill id) and transfer, and finally
/// emit. A fill that fails any stage is skipped with a `FillRejected` event naming whose order
/// is at fault, and the rest of the batch settles.
///
/// Funds move through Permit2, as on the live reactor: each side's input is pulled from its
/// swapper into the reactor (a failure, or a token that delivers less than it was asked, is the
/// payer's), then paid out to each recipient (a failure is the recipient's order's: a recipient
/// that cannot receive a token blocks only its own order) and to the fee recipient. The reactor
/// holds nothing between fills.
///
/// A pool fill is a taker's swap with the AMM pair of its tokens (found through the factory the
/// owner set, never named by the operator): the taker's input goes from the taker into the pair,
/// the pair pays the reactor, and the reactor pays the taker and the fee recipient.
///
/// Rounding: the operator states both amounts of a fill; the contract checks them exactly
/// (integer cross-multiplication, nothing rounded). The limit price holds for what an order has
/// paid and received in all its fills together, not for each fill alone. Fees are rates in pips
/// (1e-6) of what each side receives, rounded down, so no fee ever exceeds its signed cap. A maker
/// rebate (in pips of what the maker pays) is paid out of the taker's fee, never more than the
/// fill's `rebateCapPips` share of it: the maker pays that much less.
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
        PoolMoved,
        /// The maker's output recipient could not receive the taker's token.
        MakerRefused,
        /// The taker's output recipient could not receive the maker's token.
        TakerRefused,
        /// The fee recipient could not receive a fee.
        FeeRefused,
        /// The pair failed the swap for a reason other than its price.
        PoolFailed,
        /// The ledger's key service did not answer (reverted, ran out of gas): try again later.
        KeyServiceFailed,
        /// A rebate and a maker fee at once, or a rebate cap above the whole taker fee.
        BadRebate
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

    /// The roles whose change waits `changeDelay` and is then taken up by the new holder.
    enum Role {
        Owner,
        Operator,
        FeeRecipient,
        PairFactory
    }

    /// A proposed change of a role, which its new holder may take up from `readyAt`.
    struct PendingChange {
        address holder;
        uint64 readyAt;
    }

    error NotOwner();
    error NotOperator();
    error NotSelf();
    error Locked();
    error NoChangeReady();
    /// A fill's stage failed inside the self-call: the outcome it reports.
    error Refused(Reject reason, Party party);

    /// The live reactor's record of a taker's fill; `principalFilled` is what the order paid (its
    /// input token) and `outputAmount` what it received before its fee.
    event TakerFill(
        bytes32 indexed orderHash,
        address indexed filler,
        address indexed swapper,
        uint256 nonce,
        uint256 principalFilled,
        uint256 outputAmount,
        uint256 takerFee
    );
    /// The live reactor's record of a maker's fill; the rebate is paid in the maker's input token.
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
    /// The fill id the service keys its trades by, with both sides' fees (a pool fill has `PoolFilled`).
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
        uint256 takerFee,
        /// What the fee recipient got: the taker's fee, less a move of the pool since it was priced.
        uint256 feeCollected
    );
    event OrderCancelled(bytes32 indexed orderHash, address indexed swapper, address indexed by);
    event NonceFloorRaised(address indexed swapper, uint256 nonceFloor, address indexed by);
    event RoleChangeProposed(Role indexed role, address holder, uint64 readyAt);
    event OwnerChanged(address owner);
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

    /// The Permit2 (AllowanceTransfer) contract every fill pulls through.
    IAllowanceTransfer public immutable permit2;
    /// How long a proposed owner, operator, fee recipient or pair factory waits before it can take over.
    uint256 public immutable changeDelay;
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

    address public owner;
    address public operator;
    address public feeRecipient;
    /// The AMM factory whose pairs pool fills swap with; none until the owner sets it.
    address public pairFactory;
    mapping(Role => PendingChange) public pendingChange;
    /// Each order's progress, per order hash.
    mapping(bytes32 => Progress) public progress;
    mapping(address => mapping(bytes32 => bool)) public cancelled;
    /// The floor a swapper set itself, and the one the operator set for it: orders below either
    /// are void, and the operator's never stops the swapper raising its own.
    mapping(address => uint256) public swapperFloor;
    mapping(address => uint256) public operatorFloor;
    mapping(bytes32 => uint256) private orderFlags;
    /// One bit per settled fill id.
    mapping(uint256 => uint256) private settledFillWords;
    /// Set while a call that changes state runs, so a token's hook cannot reenter.
    bool private transient entered;

    modifier onlyOwner() {
        if (msg.sender != owner) revert NotOwner();
        _;
    }

    modifier onlyOperator() {
        if (msg.sender != operator) revert NotOperator();
        _;
    }

    /// No call that changes state runs inside another (a token's transfer hook calling back).
    modifier locked() {
        if (entered) revert Locked();
        entered = true;
        _;
        entered = false;
    }

    constructor(
        string memory name,
        string memory version,
        IAllowanceTransfer permit2_,
        uint256 changeDelay_,
        address operator_,
        address feeRecipient_
    ) {
        owner = msg.sender;
        permit2 = permit2_;
        changeDelay = changeDelay_;
        nameHash = keccak256(bytes(name));
        versionHash = keccak256(bytes(version));
        deployChainId = block.chainid;
        deployDomainSeparator = computeDomainSeparator();
        operator = operator_;
        feeRecipient = feeRecipient_;
    }

    /// Proposes a new holder of `role`; it can take over after `changeDelay` (`acceptRole`). The
    /// first pair factory needs no wait: nothing routes to a pool before there is one.
    function proposeRole(Role role, address holder) external onlyOwner {
        if (role == Role.PairFactory && pairFactory == address(0)) {
            setRole(role, holder);
            return;
        }
        // Saturates at the end of uint64 time: truncated, a longer delay wrapped round to a time
        // already past, and the change could be taken up at once.
        uint64 readyAt = type(uint64).max;
        // An overflow guard, not a deadline: a validator's leeway on the clock changes nothing.
        // forge-lint: disable-next-line(block-timestamp)
        if (changeDelay < type(uint64).max - block.timestamp) {
            // forge-lint: disable-next-line(unsafe-typecast)
            readyAt = uint64(block.timestamp + changeDelay); // below 2^64 - 1 by the check above
        }
        pendingChange[role] = PendingChange(holder, readyAt);
        emit RoleChangeProposed(role, holder, readyAt);
    }

    /// Takes up a proposed role once its wait is over: the new owner, operator or fee recipient
    /// itself (so a mistyped address never takes over), the owner for a pair factory.
    function acceptRole(Role role) external {
        PendingChange memory change = pendingChange[role];
        address taker = role == Role.PairFactory ? owner : change.holder;
        // The wait is a day or more: a validator's few seconds of leeway on the clock are immaterial.
        // forge-lint: disable-next-line(block-timestamp)
        if (change.readyAt == 0 || block.timestamp < change.readyAt || msg.sender != taker) revert NoChangeReady();
        delete pendingChange[role];
        setRole(role, change.holder);
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

    /// Orders of `swapper` with a nonce below this are void.
    function nonceFloor(address swapper) public view returns (uint256) {
        uint256 own = swapperFloor[swapper];
        uint256 operators = operatorFloor[swapper];
        return own > operators ? own : operators;
    }

    function isFillSettled(uint64 fillId) public view returns (bool) {
        (uint256 word, uint256 bit) = fillBit(fillId);
        return settledFillWords[word] & bit != 0;
    }

    /// Settles matched pairs, then pool fills, and returns one outcome per fill followed by one per
    /// pool fill (reason `None` when it settled), so a simulation tells the operator which would
    /// fail, and whose order is at fault, before it sends the batch.
    function settle(SignedOrder[] calldata orders, Fill[] calldata fills, PoolFill[] calldata poolFills)
        external
        onlyOperator
        locked
        returns (Outcome[] memory outcomes)
    {
        bytes32[] memory digests = new bytes32[](orders.length);
        Reject[] memory states = new Reject[](orders.length);
        for (uint256 i = 0; i < orders.length; i++) {
            digests[i] = orderDigest(orders[i].order);
            states[i] = resolve(orders[i], digests[i]);
        }
        outcomes = new Outcome[](fills.length + poolFills.length);
        for (uint256 i = 0; i < fills.length; i++) {
            outcomes[i] = settleFill(orders, digests, states, fills[i]);
        }
        for (uint256 i = 0; i < poolFills.length; i++) {
            outcomes[fills.length + i] = settlePoolFill(orders, digests, states, poolFills[i]);
        }
    }

    /// The swapper cancels its own orders by hash.
    function cancel(bytes32[] calldata orderHashes) external locked {
        cancelOrders(msg.sender, orderHashes);
    }

    /// The operator cancels a swapper's orders (the service's `POST /cancel`).
    function cancelFor(address swapper, bytes32[] calldata orderHashes) external onlyOperator locked {
        cancelOrders(swapper, orderHashes);
    }

    /// The swapper voids every order with a nonce below `floor`. Its own floor only rises.
    function cancelAll(uint256 floor) external locked {
        if (floor <= swapperFloor[msg.sender]) return;
        swapperFloor[msg.sender] = floor;
        emit NonceFloorRaised(msg.sender, floor, msg.sender);
    }

    /// The operator raises a swapper's nonce floor (the service's `POST /cancel/all`).
    function cancelAllFor(address swapper, uint256 floor) external onlyOperator locked {
        if (floor <= operatorFloor[swapper]) return;
        operatorFloor[swapper] = floor;
        emit NonceFloorRaised(swapper, floor, msg.sender);
    }

    /// Frees what the reactor recorded for orders past their deadline: the progress, the flags and
    /// the swapper's cancellation. `resolve` refuses an expired order before it reads any of them,
    /// so they are dead storage. Anyone may call it; an order not expired yet is left as it is.
    function forgetExpired(PartialFillLimitOrder[] calldata orders) external locked {
        for (uint256 i = 0; i < orders.length; i++) {
            PartialFillLimitOrder calldata order = orders[i];
            // A deadline is the signer's own date: a validator's leeway moves it by seconds.
            // forge-lint: disable-next-line(block-timestamp)
            if (order.info.deadline >= block.timestamp) continue;
            bytes32 digest = orderDigest(order);
            delete progress[digest];
            delete orderFlags[digest];
            delete cancelled[order.info.swapper][digest];
        }
    }

    /// Records and moves one book fill; reverts as a whole (`Refused` names the failing stage), so
    /// a failed fill leaves no trace. External only so `settle` can contain its failure.
    /// `amounts`: maker pays, taker pays, maker's fee, taker's fee, maker's rebate.
    function transferFill(
        PartialFillLimitOrder calldata maker,
        PartialFillLimitOrder calldata taker,
        bytes32 makerHash,
        bytes32 takerHash,
        uint64 fillId,
        uint256[5] calldata amounts
    ) external {
        if (msg.sender != address(this)) revert NotSelf();
        record(makerHash, amounts[0], amounts[1]);
        recordTaken(fillId, takerHash, amounts[1], amounts[0]);
        address makerToken = maker.input.token;
        address takerToken = taker.input.token;
        collect(makerToken, maker.info.swapper, amounts[0] - amounts[4], Party.Maker);
        collect(takerToken, taker.info.swapper, amounts[1], Party.Taker);
        deliver(makerToken, taker.output.recipient, amounts[0] - amounts[3], Reject.TakerRefused, Party.Taker);
        deliver(takerToken, maker.output.recipient, amounts[1] - amounts[2], Reject.MakerRefused, Party.Maker);
        deliver(makerToken, feeRecipient, amounts[3] - amounts[4], Reject.FeeRefused, Party.None);
        deliver(takerToken, feeRecipient, amounts[2], Reject.FeeRefused, Party.None);
    }

    /// Records and moves one pool fill: the taker's input into the pair, the pair's output to the
    /// reactor and on to the taker and the fee recipient; reverts as a whole. External only so
    /// `settle` can contain its failure. `amounts`: taker pays, pair pays, taker's fee.
    /// The taker always receives exactly what the operator stated less its fee, as the service
    /// recorded it; a pool that moved since it was priced is absorbed out of that fee (the fee
    /// recipient takes less), and a pool that moved further is `PoolMoved`.
    function transferPoolFill(
        PartialFillLimitOrder calldata taker,
        bytes32 takerHash,
        uint64 fillId,
        address pair,
        uint256[3] calldata amounts
    ) external returns (uint256 feeCollected) {
        if (msg.sender != address(this)) revert NotSelf();
        recordTaken(fillId, takerHash, amounts[0], amounts[1]);
        address tokenIn = taker.input.token;
        address tokenOut = taker.output.token;
        uint256 pairHeld = balanceOf(tokenIn, pair);
        pull(tokenIn, taker.info.swapper, pair, amounts[0], Party.Taker);
        // A token that keeps part of a transfer delivers less than the taker signed to pay.
        if (!grew(tokenIn, pair, pairHeld, amounts[0])) revert Refused(Reject.TakerTransfer, Party.Taker);
        bool outIsToken0 = tokenOut < tokenIn;
        uint256 owed = amounts[1] - amounts[2];
        uint256 asked = poolOutput(pair, tokenIn, outIsToken0, amounts[1]);
        if (asked < owed || asked == 0) revert Refused(Reject.PoolMoved, Party.None);
        uint256 held = balanceOf(tokenOut, address(this));
        try IPairSwap(pair).swap(outIsToken0 ? asked : 0, outIsToken0 ? 0 : asked, address(this)) {}
        catch {
            // Its own reserves allowed the swap: it failed for some other reason than its price.
            revert Refused(Reject.PoolFailed, Party.None);
        }
        // An output token that keeps part of a transfer cannot pay the taker what it signed for.
        if (!grew(tokenOut, address(this), held, asked)) revert Refused(Reject.TakerRefused, Party.Taker);
        deliver(tokenOut, taker.output.recipient, owed, Reject.TakerRefused, Party.Taker);
        feeCollected = asked - owed;
        deliver(tokenOut, feeRecipient, feeCollected, Reject.FeeRefused, Party.None);
    }

    function computeDomainSeparator() private view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, nameHash, versionHash, block.chainid, address(this)));
    }

    function setRole(Role role, address holder) private {
        if (role == Role.Owner) {
            owner = holder;
            emit OwnerChanged(holder);
        } else if (role == Role.Operator) {
            operator = holder;
            emit OperatorChanged(holder);
        } else if (role == Role.FeeRecipient) {
            feeRecipient = holder;
            emit FeeRecipientChanged(holder);
        } else {
            pairFactory = holder;
            emit PairFactoryChanged(holder);
        }
    }

    /// Stage 1, once per order and batch: whether the signed order may trade at all.
    function resolve(SignedOrder calldata signed, bytes32 digest) private returns (Reject) {
        PartialFillLimitOrder calldata order = signed.order;
        address swapper = order.info.swapper;
        if (order.info.reactor != address(this)) return Reject.WrongReactor;
        // A deadline is the signer's own date: a validator's leeway moves it by seconds.
        // forge-lint: disable-next-line(block-timestamp)
        if (order.info.deadline < block.timestamp) return Reject.Expired;
        if (order.info.nonce < nonceFloor(swapper)) return Reject.NonceBelowFloor;
        if (cancelled[swapper][digest]) return Reject.Cancelled;
        if (order.info.additionalValidationContract != address(0)) return Reject.ValidationContract;
        if (order.input.amount > MAX_AMOUNT || order.output.amount > MAX_AMOUNT) return Reject.AmountTooLarge;
        if (orderFlags[digest] & VERIFIED == 0) {
            SignatureCheck check = OrderSignatures.check(signed.signature, digest, swapper);
            if (check == SignatureCheck.Unavailable) return Reject.KeyServiceFailed;
            if (check != SignatureCheck.Valid) return Reject.BadSignature;
            orderFlags[digest] |= VERIFIED;
        }
        return Reject.None;
    }

    function settleFill(SignedOrder[] calldata orders, bytes32[] memory digests, Reject[] memory states, Fill calldata fill)
        private
        returns (Outcome memory outcome)
    {
        if (fill.maker >= orders.length || fill.taker >= orders.length) {
            return rejected(fill.fillId, bytes32(0), bytes32(0), Outcome(Reject.BadIndex, Party.None));
        }
        bytes32 makerHash = digests[fill.maker];
        bytes32 takerHash = digests[fill.taker];
        PartialFillLimitOrder calldata maker = orders[fill.maker].order;
        PartialFillLimitOrder calldata taker = orders[fill.taker].order;
        if (isFillSettled(fill.fillId)) outcome = Outcome(Reject.AlreadySettled, Party.None);
        else if (states[fill.maker] != Reject.None) outcome = Outcome(states[fill.maker], blamed(states[fill.maker], Party.Maker));
        else if (states[fill.taker] != Reject.None) outcome = Outcome(states[fill.taker], blamed(states[fill.taker], Party.Taker));
        else outcome = validateFill(maker, taker, fill, makerHash, takerHash);
        if (outcome.reason != Reject.None) return rejected(fill.fillId, makerHash, takerHash, outcome);
        // Fees round down: never above the rate, so never above the signed cap.
        uint256 makerFee = fill.takerAmount * fill.makerFeePips / PIPS;
        uint256 takerFee = fill.makerAmount * fill.takerFeePips / PIPS;
        uint256 rebate = rebateOf(fill, takerFee);
        try this.transferFill(
            maker, taker, makerHash, takerHash, fill.fillId, [fill.makerAmount, fill.takerAmount, makerFee, takerFee, rebate]
        ) {
            emit MakerFill(
                makerHash, msg.sender, maker.info.swapper, maker.info.nonce, fill.makerAmount, fill.takerAmount, makerFee, rebate
            );
            emit TakerFill(takerHash, msg.sender, taker.info.swapper, taker.info.nonce, fill.takerAmount, fill.makerAmount, takerFee);
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
        } catch (bytes memory failure) {
            return rejected(fill.fillId, makerHash, takerHash, refusal(failure));
        }
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
        if (isFillSettled(poolFill.fillId)) outcome = Outcome(Reject.AlreadySettled, Party.None);
        else if (states[poolFill.taker] != Reject.None) outcome = Outcome(states[poolFill.taker], blamed(states[poolFill.taker], Party.Taker));
        else outcome = validatePoolFill(taker, poolFill, takerHash);
        address pair = outcome.reason == Reject.None ? pairOf(taker.input.token, taker.output.token) : address(0);
        if (outcome.reason == Reject.None && pair == address(0)) outcome = Outcome(Reject.NoPool, Party.None);
        if (outcome.reason != Reject.None) return rejected(poolFill.fillId, bytes32(0), takerHash, outcome);
        uint256 takerFee = poolFill.amountOut * poolFill.takerFeePips / PIPS;
        try this.transferPoolFill(taker, takerHash, poolFill.fillId, pair, [poolFill.amountIn, poolFill.amountOut, takerFee]) returns (
            uint256 feeCollected
        ) {
            emit TakerFill(
                takerHash, msg.sender, taker.info.swapper, taker.info.nonce, poolFill.amountIn, poolFill.amountOut, takerFee
            );
            emit PoolFilled(
                poolFill.fillId,
                takerHash,
                pair,
                taker.info.swapper,
                poolFill.amountIn,
                poolFill.amountOut,
                takerFee,
                feeCollected
            );
        } catch (bytes memory failure) {
            return rejected(poolFill.fillId, bytes32(0), takerHash, refusal(failure));
        }
    }

    /// A key service that did not answer is no fault of the signer: its orders are tried again later.
    function blamed(Reject state, Party party) private pure returns (Party) {
        return state == Reject.KeyServiceFailed ? Party.None : party;
    }

    /// The factory's pair of two tokens, or none; a factory that fails the lookup has none.
    function pairOf(address tokenA, address tokenB) private view returns (address) {
        if (pairFactory == address(0)) return address(0);
        try IPairFactory(pairFactory).getPair(tokenA, tokenB) returns (address pair) {
            return pair.code.length == 0 ? address(0) : pair;
        } catch {
            return address(0);
        }
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
        // Lossless: each amount is below 2^128 by the checks above (a pool pays below 2^112 anyway).
        // forge-lint: disable-next-line(unsafe-typecast)
        state.paid += uint128(paid);
        // forge-lint: disable-next-line(unsafe-typecast)
        state.received += uint128(received);
    }

    /// What a settled fill leaves: the taker's progress, its having taken, and the fill id used.
    function recordTaken(uint64 fillId, bytes32 takerHash, uint256 takerPaid, uint256 takerReceived) private {
        record(takerHash, takerPaid, takerReceived);
        orderFlags[takerHash] |= HAS_TAKEN;
        (uint256 word, uint256 bit) = fillBit(fillId);
        settledFillWords[word] |= bit;
    }

    /// Where a fill id's bit is: its word of `settledFillWords` (256 ids a word) and the bit in it.
    function fillBit(uint64 fillId) private pure returns (uint256 word, uint256 bit) {
        word = fillId >> 8;
        // The literal 1 shifted to the id's place in the word: a bitmap, as meant.
        // forge-lint: disable-next-line(incorrect-shift)
        bit = 1 << (fillId & 0xff);
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

    /// The rebate a fill pays its maker out of the taker's fee: `makerRebatePips` of what the
    /// maker pays, at most `rebateCapPips` of the taker's fee.
    function rebateOf(Fill calldata fill, uint256 takerFee) private pure returns (uint256) {
        if (fill.makerRebatePips == 0) return 0;
        uint256 rebate = fill.makerAmount * fill.makerRebatePips / PIPS;
        uint256 cap = takerFee * fill.rebateCapPips / PIPS;
        return rebate < cap ? rebate : cap;
    }

    /// Stage 2 for a pool fill: the swap against the taker's signed order.
    function validatePoolFill(PartialFillLimitOrder calldata taker, PoolFill calldata poolFill, bytes32 takerHash)
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

    /// Stage 2 for a book fill: the fill against both signed orders.
    function validateFill(
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
        if (fill.makerRebatePips != 0 && (fill.makerFeePips != 0 || fill.rebateCapPips > PIPS || fill.makerRebatePips > PIPS)) {
            return Outcome(Reject.BadRebate, Party.None);
        }
        return Outcome(Reject.None, Party.None);
    }

    /// The outcome a failed self-call reports: its `Refused`, or `TransferReverted` when it failed
    /// otherwise (out of gas, say) and no party is known to be at fault.
    function refusal(bytes memory failure) private pure returns (Outcome memory) {
        // bytes4 takes the selector of a failure whose length is checked first, as meant.
        // forge-lint: disable-next-line(unsafe-typecast)
        if (failure.length != 68 || bytes4(failure) != Refused.selector) return Outcome(Reject.TransferReverted, Party.None);
        uint256 reason;
        uint256 party;
        assembly {
            reason := mload(add(failure, 36))
            party := mload(add(failure, 68))
        }
        if (reason > uint256(type(Reject).max) || party > uint256(type(Party).max)) {
            return Outcome(Reject.TransferReverted, Party.None);
        }
        return Outcome(Reject(reason), Party(party));
    }

    /// Pulls `amount` of `token` from `from` into the reactor through Permit2: a failure, or less
    /// arriving than was asked, is the payer's.
    function collect(address token, address from, uint256 amount, Party payer) private {
        if (amount == 0) return;
        uint256 held = balanceOf(token, address(this));
        pull(token, from, address(this), amount, payer);
        if (!grew(token, address(this), held, amount)) revert Refused(payerReject(payer), payer);
    }

    /// Whether `account`'s balance of `token` rose by at least `amount` from `before`.
    function grew(address token, address account, uint256 before, uint256 amount) private view returns (bool) {
        uint256 after_ = balanceOf(token, account);
        return after_ >= before && after_ - before >= amount;
    }

    /// What to ask of the pair for the taker's input it now holds: the stated output, or less when
    /// the pool moved against it since it was priced (the surplus of a move the other way stays in
    /// the pair); 0 when it has nothing to give for it.
    function poolOutput(address pair, address tokenIn, bool outIsToken0, uint256 stated) private view returns (uint256) {
        (bool ok, bytes memory result) = pair.staticcall(abi.encodeWithSignature("getReserves()"));
        if (!ok || result.length < 64) revert Refused(Reject.PoolFailed, Party.None);
        (uint256 reserve0, uint256 reserve1) = abi.decode(result, (uint256, uint256));
        (uint256 reserveIn, uint256 reserveOut) = outIsToken0 ? (reserve1, reserve0) : (reserve0, reserve1);
        uint256 balanceIn = balanceOf(tokenIn, pair);
        if (reserveIn == 0 || reserveOut == 0 || balanceIn <= reserveIn || reserveIn > MAX_AMOUNT || reserveOut > MAX_AMOUNT) {
            return 0;
        }
        uint256 paidIn = balanceIn - reserveIn;
        if (paidIn > MAX_AMOUNT) return stated < reserveOut ? stated : 0;
        uint256 available = AmmMath.amountOut(paidIn, reserveIn, reserveOut);
        return available < stated ? available : stated;
    }

    function pull(address token, address from, address to, uint256 amount, Party payer) private {
        if (amount == 0) return;
        // Amounts are below MAX_AMOUNT (2^128), well inside Permit2's uint160.
        // forge-lint: disable-next-line(unsafe-typecast)
        try permit2.transferFrom(from, to, uint160(amount), token) {}
        catch {
            revert Refused(payerReject(payer), payer);
        }
    }

    /// Pays out tokens the reactor holds: a recipient that cannot receive them is `refused`'s fault.
    function deliver(address token, address to, uint256 amount, Reject refused, Party party) private {
        if (amount == 0) return;
        (bool ok, bytes memory result) = token.call(abi.encodeCall(IERC20.transfer, (to, amount)));
        // Tokens that return nothing succeed by not reverting; the rest must return true.
        if (!ok || (result.length != 0 && (result.length != 32 || !abi.decode(result, (bool))))) {
            revert Refused(refused, party);
        }
    }

    function payerReject(Party payer) private pure returns (Reject) {
        return payer == Party.Maker ? Reject.MakerTransfer : Reject.TakerTransfer;
    }

    /// A token's balance, read so that a token without code, or one that answers nonsense, reads
    /// as zero: the transfer stages then fail on it.
    function balanceOf(address token, address account) private view returns (uint256) {
        (bool ok, bytes memory result) = token.staticcall(abi.encodeCall(IERC20.balanceOf, (account)));
        return ok && result.length >= 32 ? abi.decode(result, (uint256)) : 0;
    }

    function cancelOrders(address swapper, bytes32[] calldata orderHashes) private {
        for (uint256 i = 0; i < orderHashes.length; i++) {
            if (cancelled[swapper][orderHashes[i]]) continue;
            cancelled[swapper][orderHashes[i]] = true;
            emit OrderCancelled(orderHashes[i], swapper, msg.sender);
        }
    }
}
