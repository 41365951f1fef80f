// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmMath} from "../../src/amm/AmmMath.sol";
import {Fill, PartialFillLimitOrder, PoolFill, SignedOrder} from "../../src/lib/OrderTypes.sol";
import {IFactory, IPair} from "../support/AmmInterfaces.sol";
import {FillBuilder, IMintable, OrderBuilder, ReactorWorld} from "../support/ReactorFixtures.sol";
import {IReactor, Party, Reject, Role} from "../support/ReactorInterfaces.sol";
import {
    FalseReturningToken,
    FeeOnTransferToken,
    GasBurnerToken,
    IFreezingToken,
    PlainToken,
    ReentrantToken
} from "../support/Tokens.sol";
import {Vm} from "../support/Vm.sol";

/// Drives one reactor through random batches: book fills between signed orders of four swappers,
/// pool fills against the repo's AmmPair, cancellations by swappers, strangers and the operator,
/// both kinds of nonce floor, time passing past deadlines, forgetExpired, and a third party moving
/// the pools, over two plain tokens and five hostile ones (a fee on transfer, a freezing token, one
/// that returns false, one whose hook tries to reenter, one that burns the gas).
///
/// Amounts are planned to mostly settle (at or inside both signed rates) and sometimes not
/// (overfills, bad prices, fees above the caps, replayed fill ids, dead orders), so both paths run.
/// Ghosts keep, per order, what the reactor's events say it paid, received and was charged, and per
/// token what the fee recipient should hold; what must hold across each settle is checked right
/// after it, and the first breach is kept in `violation`.
contract ReactorHandler is ReactorWorld {
    using FillBuilder for Fill;
    using OrderBuilder for PartialFillLimitOrder;

    uint256 internal constant ACTORS = 4;
    uint256 internal constant MAX_ORDERS = 48;
    /// Each pool starts with this much of both its tokens: a price of one for one.
    uint256 internal constant POOL_DEPTH = 1e24;

    /// A pair of tokens orders trade; `pair` is the AMM pair of the two, or none.
    struct Market {
        address base;
        address quote;
        address pair;
    }

    /// An order the handler signed, and what it knows of it beyond the reactor's state.
    struct Record {
        PartialFillLimitOrder order;
        bytes signature;
        bytes32 hash;
        uint256 market;
        /// Signed by a key other than its swapper's: it must never trade.
        bool forged;
        /// Its signed amounts exceed MAX_AMOUNT: it must never trade.
        bool oversized;
    }

    /// What the reactor's events say an order did, across all its fills.
    struct Ghost {
        uint256 paid;
        uint256 received;
        uint256 makerReceived;
        uint256 makerFees;
        uint256 takerReceived;
        uint256 takerFees;
        uint256 takes;
        /// forgetExpired freed its progress (the reactor then reads zero for it).
        bool forgotten;
        bool cancelled;
    }

    address public immutable operator;
    address public immutable feeRecipient;
    IFactory public immutable factory;
    PlainToken public immutable tokenA;
    PlainToken public immutable tokenB;
    FeeOnTransferToken public immutable taxed;
    IFreezingToken public immutable freezing;
    FalseReturningToken public immutable falsy;
    ReentrantToken public immutable hooked;
    GasBurnerToken public immutable burner;

    address[] internal tokenList;
    Market[] internal markets;
    uint256[ACTORS] internal keys;
    address[ACTORS] internal actors;
    Record[] internal records;
    mapping(bytes32 => uint256) internal recordIndex; // index + 1
    mapping(bytes32 => Ghost) internal ghosts;
    /// The floors the handler set: the swapper's own and the operator's.
    mapping(address => uint256) public ownFloor;
    mapping(address => uint256) public operatorFloor;
    /// Fees the events say the fee recipient was paid, and rebates paid back out of them, per token.
    mapping(address => uint256) public feesPaid;
    mapping(address => uint256) public rebatesPaid;
    /// Fill ids the events say settled; each at most once.
    uint64[] internal settledIds;
    mapping(uint64 => bool) internal seenId;
    /// Each fill's rebate cap, by id (ids are only reused verbatim, as replays).
    mapping(uint64 => uint32) internal rebateCapOf;
    uint64 internal nextFillId = 1;

    string public violation;
    mapping(bytes32 => uint256) public calls;
    uint256 public settledFills;
    uint256 public settledPoolFills;
    uint256 public rejectedFills;
    /// Refusals seen, by Reject reason: what the runs exercised.
    mapping(uint8 => uint256) public rejections;

    constructor() {
        operator = makeAddr("operator");
        feeRecipient = makeAddr("fees");
        deployReactor(operator, feeRecipient, CHANGE_DELAY);
        factory = IFactory(deploy("AmmFactory.sol:AmmFactory", abi.encode(address(this))));
        reactor.proposeRole(Role.PairFactory, address(factory));

        tokenA = new PlainToken("A", 18);
        tokenB = new PlainToken("B", 6);
        taxed = new FeeOnTransferToken("TAX", 18, 100);
        freezing = IFreezingToken(deploy("FreezingToken.sol:FreezingToken", ""));
        freezing.initialize("FROZEN", "FROZEN", 6, address(this));
        falsy = new FalseReturningToken("FALSE", 18);
        hooked = new ReentrantToken("HOOK", 18);
        burner = new GasBurnerToken("BURN", 18);
        tokenList = [
            address(tokenA),
            address(tokenB),
            address(taxed),
            address(freezing),
            address(falsy),
            address(hooked),
            address(burner)
        ];

        addMarket(address(tokenA), address(tokenB), true);
        addMarket(address(tokenA), address(freezing), true);
        addMarket(address(tokenB), address(taxed), true);
        addMarket(address(tokenA), address(falsy), false);
        addMarket(address(tokenB), address(hooked), false);
        addMarket(address(tokenA), address(burner), false);

        for (uint256 i; i < ACTORS; ++i) {
            keys[i] = 0xA0 + i; // deterministic test keys
            actors[i] = vm.addr(keys[i]);
            vm.label(actors[i], string.concat("swapper", vm.toString(i)));
            for (uint256 t; t < tokenList.length; ++t) onboard(actors[i], tokenList[t]);
            associateWithFrozen(actors[i]);
        }
        // Everyone paid FROZEN associates with it first, as the ledger asks (freezing refuses instead).
        associateWithFrozen(feeRecipient);
        for (uint256 i; i < MAX_ORDERS; ++i) associateWithFrozen(recipientOf(i));
    }

    function associateWithFrozen(address account) internal {
        vm.prank(account);
        freezing.associate();
    }

    function addMarket(address base, address quote, bool pooled) internal {
        address pair;
        if (pooled) {
            pair = factory.createPair(base, quote);
            IMintable(base).mint(pair, POOL_DEPTH);
            IMintable(quote).mint(pair, POOL_DEPTH);
            IPair(pair).mint(address(this));
        }
        markets.push(Market(base, quote, pair));
    }

    // --- actions ---

    /// A new signed order of a swapper in a market, funded with its input. Mostly live and priced
    /// near one for one (so books cross and pools take them); sometimes dead at birth (below a
    /// floor, past its deadline), forged, oversized, makerOnly or takerOnce.
    function createOrder(uint256 actorSeed, uint256 marketSeed, bool sellsBase, uint256 amountSeed, uint256 shapeSeed)
        external
    {
        if (records.length >= MAX_ORDERS) return;
        ++calls["createOrder"];
        shapeSeed = mixed(shapeSeed);
        uint256 actor = actorSeed % ACTORS;
        // Half the orders answer one already signed (its market, the other side), so books cross;
        // of the rest, half trade the plain market.
        uint256 market = marketSeed % 2 == 0 ? 0 : (marketSeed >> 1) % markets.length;
        if ((shapeSeed >> 60) % 2 == 0 && records.length != 0) {
            Record storage answered = records[(shapeSeed >> 64) % records.length];
            market = answered.market;
            sellsBase = answered.order.input.token != markets[market].base;
        }
        (PartialFillLimitOrder memory order, bool oversized) = newOrder(actor, market, sellsBase, amountSeed, shapeSeed);
        bool forged = (shapeSeed >> 56) % 16 == 0;
        SignedOrder memory signedOrder = signed(order, forged ? keys[(actor + 1) % ACTORS] : keys[actor]);
        bytes32 hash = reactor.orderDigest(order);
        if (recordIndex[hash] != 0) return; // the same order again
        records.push(Record(order, signedOrder.signature, hash, market, forged, oversized));
        recordIndex[hash] = records.length;
        if (!oversized) IMintable(order.input.token).mint(actors[actor], order.input.amount);
    }

    function newOrder(uint256 actor, uint256 market, bool sellsBase, uint256 amountSeed, uint256 shapeSeed)
        internal
        view
        returns (PartialFillLimitOrder memory order, bool oversized)
    {
        Market storage traded = markets[market];
        (address tokenIn, address tokenOut) = sellsBase ? (traded.base, traded.quote) : (traded.quote, traded.base);
        uint256 amountIn = amountUpTo(amountSeed, MAX_AMOUNT);
        // 0.8 to 1.2 of the input, and an output of nothing one time in 32.
        uint256 amountOut = shapeSeed % 32 == 0 ? 0 : amountIn * (800 + (shapeSeed >> 8) % 401) / 1_000;
        if (amountOut > MAX_AMOUNT) amountOut = MAX_AMOUNT;
        oversized = (shapeSeed >> 20) % 32 == 0;
        if (oversized) amountIn = MAX_AMOUNT + 1 + (amountSeed >> 128);
        order = OrderBuilder.sell(address(reactor), actors[actor], tokenIn, amountIn, tokenOut, amountOut);
        order.withRecipient(recipientOf(records.length)).withNonce(nonceFor(actors[actor], shapeSeed >> 24));
        order.withDeadline(deadlineFor(shapeSeed >> 32));
        shape(order, shapeSeed >> 40);
    }

    /// A batch of up to four book fills between orders of opposite sides of a market (fills with
    /// no live pair of orders left out, but one time in eight); the gas burner and the reentrant
    /// hook may be armed for it.
    function settleBook(uint256 seed, uint256 countSeed, uint256 hostileSeed) external {
        if (records.length < 2) return;
        uint256[8] memory picked;
        uint16 count;
        for (uint256 k; k < 1 + countSeed % 4; ++k) {
            (uint256 makerAt, uint256 takerAt, bool found) = counterparts(uint256(keccak256(abi.encode(seed, k))));
            if (!found) continue;
            (picked[2 * count], picked[2 * count + 1]) = (makerAt, takerAt);
            ++count;
        }
        if (count == 0) return;
        ++calls["settleBook"];
        SignedOrder[] memory orders = new SignedOrder[](2 * count);
        Fill[] memory fills = new Fill[](count);
        for (uint16 k; k < count; ++k) {
            uint256 fillSeed = mixed(seed ^ (uint256(k) << 200));
            (orders[2 * k], orders[2 * k + 1]) = (signedOf(picked[2 * k]), signedOf(picked[2 * k + 1]));
            // One fill in sixteen repeats the batch's previous one, id and all.
            if (k > 0 && (fillSeed >> 240) % 16 == 0) {
                fills[k] = fills[k - 1];
                continue;
            }
            fills[k] = planFill(picked[2 * k], picked[2 * k + 1], fillSeed);
            fills[k].maker = 2 * k;
            fills[k].taker = 2 * k + 1;
            fills[k].fillId = fillIdFor(fillSeed, fills[k].rebateCapPips);
        }
        execute(orders, fills, new PoolFill[](0), hostileSeed);
    }

    /// A pool fill of an order in a pooled market, at or near the pair's current quote.
    function settlePool(uint256 seed, uint256 hostileSeed) external {
        if (records.length == 0) return;
        ++calls["settlePool"];
        seed = mixed(seed);
        uint256 at = poolTaker(seed);
        if (at == type(uint256).max) return;
        Record storage record = records[at];
        Market memory market = markets[record.market];
        if (market.pair == address(0)) return;
        SignedOrder[] memory orders = new SignedOrder[](1);
        orders[0] = signedOf(at);
        PoolFill[] memory poolFills = new PoolFill[](1);
        poolFills[0] = planPoolFill(record.order, record.hash, market.pair, seed);
        execute(orders, new Fill[](0), poolFills, hostileSeed);
    }

    /// A fill id that settled before, sent again with its orders in a new batch.
    function replayFill(uint256 seed) external {
        if (settledIds.length == 0 || records.length < 2) return;
        ++calls["replayFill"];
        seed = mixed(seed);
        (uint256 makerAt, uint256 takerAt, bool found) = counterparts(seed);
        if (!found) return;
        SignedOrder[] memory orders = new SignedOrder[](2);
        (orders[0], orders[1]) = (signedOf(makerAt), signedOf(takerAt));
        Fill[] memory fills = new Fill[](1);
        fills[0] = planFill(makerAt, takerAt, seed);
        fills[0].maker = 0;
        fills[0].taker = 1;
        fills[0].fillId = settledIds[(seed >> 128) % settledIds.length];
        execute(orders, fills, new PoolFill[](0), 0);
    }

    /// The swapper cancels one of its orders; or a stranger cancels it in its own name (no effect).
    function cancel(uint256 seed, bool byStranger) external {
        if (records.length == 0) return;
        ++calls["cancel"];
        Record storage record = records[seed % records.length];
        address swapper = record.order.info.swapper;
        bytes32[] memory hashes = new bytes32[](1);
        hashes[0] = record.hash;
        address canceller = byStranger ? actors[(actorOf(swapper) + 1) % ACTORS] : swapper;
        vm.prank(canceller);
        try reactor.cancel(hashes) {} catch (bytes memory reason) {
            breach("cancel reverted", reason);
        }
        if (!byStranger) ghosts[record.hash].cancelled = true;
    }

    /// The operator cancels an order for its swapper.
    function cancelFor(uint256 seed) external {
        if (records.length == 0) return;
        ++calls["cancelFor"];
        Record storage record = records[seed % records.length];
        bytes32[] memory hashes = new bytes32[](1);
        hashes[0] = record.hash;
        vm.prank(operator);
        try reactor.cancelFor(record.order.info.swapper, hashes) {} catch (bytes memory reason) {
            breach("cancelFor reverted", reason);
        }
        ghosts[record.hash].cancelled = true;
    }

    /// A swapper raises its own floor by a few nonces (or tries to lower it).
    function raiseOwnFloor(uint256 actorSeed, uint256 step) external {
        ++calls["raiseOwnFloor"];
        step = mixed(step);
        address swapper = actors[actorSeed % ACTORS];
        uint256 floor = above(nonceFloorOf(swapper), step % 4);
        if (step % 8 == 7) floor = ownFloor[swapper] / 2;
        vm.prank(swapper);
        try reactor.cancelAll(floor) {} catch (bytes memory reason) {
            breach("cancelAll reverted", reason);
        }
        if (floor > ownFloor[swapper]) ownFloor[swapper] = floor;
    }

    /// The operator raises a swapper's floor by a few nonces, or (rarely) to the very top, after
    /// which the swapper's own cancelAll must still work.
    function raiseOperatorFloor(uint256 actorSeed, uint256 step) external {
        ++calls["raiseOperatorFloor"];
        step = mixed(step);
        address swapper = actors[actorSeed % ACTORS];
        uint256 floor = step % 64 == 0 ? type(uint256).max : above(nonceFloorOf(swapper), step % 3);
        vm.prank(operator);
        try reactor.cancelAllFor(swapper, floor) {} catch (bytes memory reason) {
            breach("cancelAllFor reverted", reason);
        }
        if (floor > operatorFloor[swapper]) operatorFloor[swapper] = floor;
    }

    /// Time passes, up to half a day: deadlines (up to a week) run out over a run.
    function passTime(uint256 seconds_) external {
        ++calls["passTime"];
        vm.warp(vm.getBlockTimestamp() + bound(seconds_, 1, 12 hours));
    }

    /// Anyone asks the reactor to forget a few orders: the expired ones' progress goes.
    function forgetExpired(uint256 seed, uint256 countSeed) external {
        if (records.length == 0) return;
        ++calls["forgetExpired"];
        uint256 count = 1 + countSeed % 4;
        PartialFillLimitOrder[] memory orders = new PartialFillLimitOrder[](count);
        uint256 now_ = vm.getBlockTimestamp();
        for (uint256 k; k < count; ++k) {
            Record storage record = records[(seed % records.length + k * 7) % records.length];
            orders[k] = record.order;
            if (record.order.info.deadline < now_) ghosts[record.hash].forgotten = true;
        }
        vm.prank(actors[seed % ACTORS]);
        try reactor.forgetExpired(orders) {} catch (bytes memory reason) {
            breach("forgetExpired reverted", reason);
        }
    }

    /// Freezes or thaws a swapper, an order's recipient or the fee recipient in FROZEN, or makes
    /// FALSE refuse (or accept) every transfer.
    function setHostility(uint256 seed, bool on) external {
        ++calls["setHostility"];
        uint256 pick = seed % 8;
        if (pick == 0) {
            falsy.setRefuseAll(on);
            return;
        }
        address account;
        if (pick < 4) account = actors[seed % ACTORS];
        else if (pick < 7) account = recipientOf((seed >> 8) % MAX_ORDERS);
        else account = feeRecipient;
        freezing.setFrozen(account, on);
    }

    /// A third party swaps with a pool, moving its price (tokens minted into the pair: no tax).
    function movePool(uint256 marketSeed, bool baseIn, uint256 amountSeed) external {
        Market memory market = markets[marketSeed % 3];
        ++calls["movePool"];
        IPair pair = IPair(market.pair);
        (address tokenIn, address tokenOut) = baseIn ? (market.base, market.quote) : (market.quote, market.base);
        (uint256 reserveIn, uint256 reserveOut) = reservesOf(pair, tokenIn);
        // Half the reserve at most, and room left below the pair's uint112 reserves.
        uint256 room = reserveIn < type(uint112).max / 2 ? type(uint112).max / 2 - reserveIn : 0;
        uint256 amountIn = amountUpTo(amountSeed, reserveIn / 2 < room ? reserveIn / 2 : room);
        if (amountIn == 0) return;
        uint256 amountOut = AmmMath.amountOut(amountIn, reserveIn, reserveOut);
        if (amountOut == 0) return;
        // The taxed token takes its fee from whatever the pair sends out: the pair still gets its due.
        IMintable(tokenIn).mint(address(pair), amountIn);
        bool outIsToken0 = tokenOut < tokenIn;
        try pair.swap(outIsToken0 ? amountOut : 0, outIsToken0 ? 0 : amountOut, address(this)) {}
        catch (bytes memory reason) {
            breach("a third party's swap reverted", reason);
        }
    }

    // --- planning ---

    /// A maker and a taker: seven times in eight a live maker and a live taker that may take, of
    /// the other side of its market at a price that crosses (or, one time in four, at any price;
    /// `found` false when there is no such pair); the eighth time any two orders of opposite sides,
    /// dead or not, or failing that any two orders, whose fill the reactor then refuses.
    function counterparts(uint256 seed) internal view returns (uint256 makerAt, uint256 takerAt, bool found) {
        uint256 n = records.length;
        bool anyOrder = (seed >> 250) % 8 == 0;
        makerAt = seed % n;
        takerAt = (makerAt + 1) % n;
        uint256 start = (seed >> 64) % n;
        // A pair whose prices do not cross is taken one time in four.
        uint256 least = anyOrder ? 1 : (seed >> 246) % 4 == 0 ? 2 : 3;
        for (uint256 k; k < n; ++k) {
            uint256 m = (makerAt + k) % n;
            if (!anyOrder && !isLive(records[m])) continue;
            (uint256 j, uint256 rank) = takerFor(m, start, anyOrder);
            if (rank >= least) return (m, j, true);
        }
        return (makerAt, takerAt, anyOrder);
    }

    /// The best taker for the maker at `makerAt`, searching from `start`, and its rank: 1 of the
    /// other side (any, when `anyOrder`), 2 and live and may take, 3 and crossing; 0 for none.
    function takerFor(uint256 makerAt, uint256 start, bool anyOrder) internal view returns (uint256 takerAt, uint256 best) {
        uint256 n = records.length;
        Record storage maker = records[makerAt];
        for (uint256 k; k < n && best < 3; ++k) {
            uint256 j = (start + k) % n;
            Record storage taker = records[j];
            if (j == makerAt || taker.market != maker.market || taker.order.input.token != maker.order.output.token) continue;
            uint256 rank = 1;
            if (!anyOrder && isLive(taker) && mayTake(taker)) rank = crosses(maker.order, taker.order) ? 3 : 2;
            if (rank > best) (best, takerAt) = (rank, j);
        }
    }

    /// A live order in a pooled market that may take, seven times in eight; any order in a pooled
    /// market the eighth time; none (type(uint256).max) otherwise.
    function poolTaker(uint256 seed) internal view returns (uint256 at) {
        uint256 n = records.length;
        at = type(uint256).max;
        bool anyOrder = (seed >> 250) % 8 == 0;
        for (uint256 k; k < n; ++k) {
            uint256 j = (seed % n + k) % n;
            Record storage record = records[j];
            if (markets[record.market].pair == address(0)) continue;
            if (anyOrder || (isLive(record) && mayTake(record))) return j;
        }
    }

    /// Whether the taker's limit price meets the maker's: maker.out/maker.in <= taker.in/taker.out.
    function crosses(PartialFillLimitOrder storage maker, PartialFillLimitOrder storage taker)
        internal
        view
        returns (bool)
    {
        if (maker.input.amount > MAX_AMOUNT || taker.input.amount > MAX_AMOUNT) return false; // oversized
        return maker.output.amount * taker.output.amount <= maker.input.amount * taker.input.amount;
    }

    /// Whether an order may be a fill's taker: not makerOnly, nor takerOnce and taken already.
    function mayTake(Record storage record) internal view returns (bool) {
        return !record.order.makerOnly && !(record.order.takerOnce && ghosts[record.hash].takes != 0);
    }

    /// Whether an order may still trade, as far as the handler knows (not whether a fill fits it).
    function isLive(Record storage record) internal view returns (bool) {
        PartialFillLimitOrder storage order = record.order;
        return !record.forged && !record.oversized && !ghosts[record.hash].cancelled
            && order.info.nonce >= nonceFloorOf(order.info.swapper) && order.info.deadline >= vm.getBlockTimestamp()
            && remaining(record) != 0;
    }

    /// Amounts within both orders' rates over all their fills where there are any (and fees
    /// within their caps); one fill in eight is bent (an overfill, a unit short of the maker's
    /// rate, a fee above a cap), so the reactor's refusals run too.
    function planFill(uint256 makerAt, uint256 takerAt, uint256 seed) internal returns (Fill memory fill) {
        Record storage maker = records[makerAt];
        Record storage taker = records[takerAt];
        if (maker.oversized || taker.oversized) return FillBuilder.fill(0, 0, 0, 1, 1);
        (uint256 makerAmount, uint256 takerAmount) = planAmounts(maker, taker, seed);
        fill = FillBuilder.fill(0, 0, 0, makerAmount, takerAmount);
        uint256 bend = (seed >> 200) % 8 == 0 ? (seed >> 204) % 4 : 4;
        if (bend == 0) fill.makerAmount = remaining(maker) + 1;
        if (bend == 1 && fill.takerAmount != 0) fill.takerAmount -= 1;
        uint256 makerCap = capped(maker.order.maxMakerFeePips);
        uint256 takerCap = capped(taker.order.maxTakerFeePips);
        uint256 takerPips = bound(seed >> 100, 0, takerCap);
        if (bend == 2) takerPips = takerCap + 1;
        if ((seed >> 140) % 4 == 0) {
            // A rebate instead of a maker fee.
            fill.withFees(0, pips(takerPips)).withRebate(pips(bound(seed >> 150, 1, 2_000)), pips(bound(seed >> 170, 0, PIPS)));
        } else {
            uint256 makerPips = bound(seed >> 120, 0, makerCap);
            if (bend == 3) makerPips = makerCap + 1;
            fill.withFees(pips(makerPips), pips(takerPips));
        }
    }

    /// What the maker pays (any part of what it has left) and what the taker pays for it: between
    /// the least the maker's rate allows and the most the taker's does, over all their fills.
    function planAmounts(Record storage maker, Record storage taker, uint256 seed)
        internal
        view
        returns (uint256 makerAmount, uint256 takerAmount)
    {
        (uint256 makerPaid, uint256 makerReceived) = reactor.progress(maker.hash);
        (uint256 takerPaid, uint256 takerReceived) = reactor.progress(taker.hash);
        uint256 makerIn = maker.order.input.amount;
        // No more than what the taker has left buys at the maker's price.
        uint256 room = remaining(maker);
        uint256 makerOut = maker.order.output.amount;
        if (makerOut != 0 && remaining(taker) * makerIn / makerOut < room) room = remaining(taker) * makerIn / makerOut;
        makerAmount = amountUpTo(seed, room);
        uint256 least;
        if (makerIn != 0) {
            uint256 owed = ceilDiv(maker.order.output.amount * (makerPaid + makerAmount), makerIn);
            least = owed > makerReceived ? owed - makerReceived : 0;
        }
        uint256 most = remaining(taker);
        uint256 takerOut = taker.order.output.amount;
        if (takerReceived + makerAmount > MAX_AMOUNT) return (makerAmount, least);
        if (takerOut != 0) {
            uint256 allowed = (takerReceived + makerAmount) * taker.order.input.amount / takerOut;
            uint256 byRate = allowed > takerPaid ? allowed - takerPaid : 0;
            if (byRate < most) most = byRate;
        }
        takerAmount = least <= most ? bound(seed >> 32, least, most) : least;
    }

    /// A swap of part of the order's input at the pair's quote now, the stated output up to 5 %
    /// below it; one in eight states a unit more than the pair gives; one in sixteen charges a fee
    /// above the order's cap.
    function planPoolFill(PartialFillLimitOrder storage order, bytes32 hash, address pair, uint256 seed)
        internal
        returns (PoolFill memory poolFill)
    {
        (uint256 amountIn, uint256 amountOut) = poolAmounts(order, hash, IPair(pair), seed);
        uint256 takerCap = capped(order.maxTakerFeePips);
        uint256 takerPips = (seed >> 130) % 16 == 0 ? takerCap + 1 : bound(seed >> 100, 0, takerCap);
        poolFill = PoolFill(nextFillId++, 0, pips(takerPips), amountIn, amountOut);
    }

    function poolAmounts(PartialFillLimitOrder storage order, bytes32 hash, IPair pair, uint256 seed)
        internal
        view
        returns (uint256 amountIn, uint256 amountOut)
    {
        (uint256 reserveIn, uint256 reserveOut) = reservesOf(pair, order.input.token);
        (uint256 paid,) = reactor.progress(hash);
        uint256 left = order.input.amount > paid ? order.input.amount - paid : 0;
        if (order.input.amount > MAX_AMOUNT) left = 1;
        amountIn = amountUpTo(seed >> 16, left < reserveIn / 4 ? left : reserveIn / 4);
        if (amountIn == 0) return (0, 0);
        uint256 quoted = AmmMath.amountOut(amountIn, reserveIn, reserveOut);
        amountOut = (seed >> 90) % 8 == 0 ? quoted + 1 : quoted - quoted * ((seed >> 80) % 51) / 1_000;
    }

    /// A fresh id (remembering the fill's rebate cap), or now and then one settled before.
    function fillIdFor(uint256 seed, uint32 rebateCap) internal returns (uint64 id) {
        if ((seed >> 224) % 16 == 0 && settledIds.length != 0) return settledIds[(seed >> 228) % settledIds.length];
        id = nextFillId++;
        rebateCapOf[id] = rebateCap;
    }

    /// Sets the fee caps and flags of a new order from `seed`.
    function shape(PartialFillLimitOrder memory order, uint256 seed) internal pure {
        uint256 caps = seed % 4;
        if (caps == 0) order.withFeeCaps(0, 0);
        else if (caps == 1) order.withFeeCaps(pips((seed >> 2) % 2 ** 32), pips((seed >> 34) % 2 ** 32)); // any caps
        if ((seed >> 66) % 8 == 0) order.withMakerOnly();
        if ((seed >> 69) % 8 == 0) order.withTakerOnce();
    }

    /// Mostly at or a little above the swapper's floor; one in eight below it (void at birth).
    function nonceFor(address swapper, uint256 seed) internal view returns (uint256) {
        uint256 floor = nonceFloorOf(swapper);
        if (seed % 8 == 0 && floor > 0) return floor - 1;
        return above(floor, (seed >> 3) % 8);
    }

    /// An hour to a week ahead; one in sixteen already past.
    function deadlineFor(uint256 seed) internal view returns (uint256) {
        uint256 now_ = vm.getBlockTimestamp();
        if (seed % 16 == 0) return now_ - 1;
        return now_ + bound(seed >> 4, 1 hours, 7 days);
    }

    // --- settling and what must hold across it ---

    /// Settles as the operator with the logs recorded, then checks the outcomes against the
    /// events, the events against the orders, and that the reactor holds nothing.
    function execute(SignedOrder[] memory orders, Fill[] memory fills, PoolFill[] memory poolFills, uint256 hostileSeed)
        internal
    {
        bool burning = armHostileTokens(orders, fills, mixed(hostileSeed));
        bool hooking = hooked.hookTarget() != address(0);
        vm.recordLogs();
        vm.prank(operator);
        try reactor.settle(orders, fills, poolFills) returns (IReactor.RawOutcome[] memory outcomes) {
            uint256 settled = readLogs(vm.getRecordedLogs());
            checkOutcomes(outcomes, settled);
        } catch (bytes memory reason) {
            vm.getRecordedLogs();
            breach(burning ? "settle reverted (gas burner armed)" : "settle reverted", reason);
        }
        disarmHostileTokens(hooking);
        for (uint256 t; t < tokenList.length; ++t) {
            if (IMintable(tokenList[t]).balanceOf(address(reactor)) != 0) {
                note(string.concat("the reactor holds ", vm.toString(tokenList[t]), " after settle"));
            }
        }
    }

    /// Arms the gas burner (only when at most one fill of the batch moves it: each burnt transfer
    /// takes all but a few per cent of the gas left) and the reentrant hook, as the seed says.
    function armHostileTokens(SignedOrder[] memory orders, Fill[] memory fills, uint256 seed)
        internal
        returns (bool burning)
    {
        if (seed % 4 == 1) {
            uint256 burnt;
            for (uint256 k; k < fills.length; ++k) {
                if (address(orders[fills[k].maker].order.input.token) == address(burner)) ++burnt;
                else if (address(orders[fills[k].maker].order.output.token) == address(burner)) ++burnt;
            }
            burning = burnt <= 1;
            burner.setArmed(burning);
        }
        if (seed % 4 == 2) {
            bytes32[] memory hashes = new bytes32[](records.length == 0 ? 0 : 1);
            if (hashes.length != 0) hashes[0] = records[(seed >> 8) % records.length].hash;
            uint256 pick = (seed >> 4) % 3;
            bytes memory call = pick == 0
                ? abi.encodeCall(IReactor.cancel, (hashes))
                : pick == 1
                    ? abi.encodeCall(IReactor.cancelAll, (type(uint256).max))
                    : abi.encodeCall(IReactor.forgetExpired, (new PartialFillLimitOrder[](0)));
            hooked.setHook(address(reactor), call);
        }
    }

    /// The burner off, and the hook: if it ran, it must have found the reactor locked.
    function disarmHostileTokens(bool hooking) internal {
        burner.setArmed(false);
        if (hooking && hooked.hookTarget() == address(0)) {
            if (hooked.hookSucceeded()) note("a token hook reentered the reactor");
            else if (keccak256(hooked.hookResult()) != keccak256(abi.encodeWithSelector(IReactor.Locked.selector))) {
                breach("a token hook failed otherwise than Locked", hooked.hookResult());
            }
        }
        hooked.setHook(address(0), "");
    }

    /// Adds what the reactor's events report to the ghosts; returns how many fills settled, counted
    /// by the live TakerFill (one per book or pool fill, its topic pinned by the live reactor's).
    function readLogs(Vm.Log[] memory logs) internal returns (uint256 settled) {
        uint256 lastRebate;
        for (uint256 i; i < logs.length; ++i) {
            Vm.Log memory log = logs[i];
            if (log.emitter != address(reactor)) continue;
            bytes32 topic = log.topics[0];
            if (topic == IReactor.MakerFill.selector) {
                lastRebate = readMakerFill(log);
            } else if (topic == IReactor.TakerFill.selector) {
                readTakerFill(log);
                ++settled;
            } else if (topic == IReactor.Filled.selector) {
                uint64 fillId = abi.decode(abi.encode(log.topics[1]), (uint64));
                (,,,,, uint256 takerFee) = abi.decode(log.data, (address, address, uint256, uint256, uint256, uint256));
                if (lastRebate > takerFee || lastRebate * PIPS > takerFee * rebateCapOf[fillId]) {
                    note(string.concat("fill ", vm.toString(fillId), ": rebate above its share of the taker fee"));
                }
                settleId(fillId);
                ++settledFills;
                lastRebate = 0;
            } else if (topic == IReactor.PoolFilled.selector) {
                settleId(abi.decode(abi.encode(log.topics[1]), (uint64)));
                ++settledPoolFills;
                // A pool that moved since it was priced is paid out of the fee: the recipient got less.
                (,,, uint256 takerFee, uint256 feeCollected) =
                    abi.decode(log.data, (address, uint256, uint256, uint256, uint256));
                if (feeCollected > takerFee) note("a pool fill paid the fee recipient more than the taker's fee");
                uint256 index = recordIndex[log.topics[2]];
                if (index != 0) feesPaid[records[index - 1].order.output.token] -= takerFee - feeCollected;
            }
        }
    }

    function readMakerFill(Vm.Log memory log) internal returns (uint256 rebate) {
        bytes32 hash = log.topics[1];
        (, uint256 paid, uint256 received, uint256 fee, uint256 rebate_) =
            abi.decode(log.data, (uint256, uint256, uint256, uint256, uint256));
        Ghost storage ghost = ghosts[hash];
        ghost.paid += paid;
        ghost.received += received;
        ghost.makerReceived += received;
        ghost.makerFees += fee;
        PartialFillLimitOrder storage order = checkAlive(hash, false);
        feesPaid[order.output.token] += fee;
        rebatesPaid[order.input.token] += rebate_;
        return rebate_;
    }

    function readTakerFill(Vm.Log memory log) internal {
        bytes32 hash = log.topics[1];
        (, uint256 paid, uint256 received, uint256 fee) = abi.decode(log.data, (uint256, uint256, uint256, uint256));
        Ghost storage ghost = ghosts[hash];
        ghost.paid += paid;
        ghost.received += received;
        ghost.takerReceived += received;
        ghost.takerFees += fee;
        ++ghost.takes;
        PartialFillLimitOrder storage order = checkAlive(hash, true);
        feesPaid[order.output.token] += fee;
    }

    /// A fill of `hash` settled: it must be an order the handler signed that may trade at all.
    function checkAlive(bytes32 hash, bool taking) internal returns (PartialFillLimitOrder storage order) {
        uint256 index = recordIndex[hash];
        if (index == 0) {
            note("a fill of an order nobody signed");
            return records[0].order;
        }
        Record storage record = records[index - 1];
        order = record.order;
        Ghost storage ghost = ghosts[hash];
        string memory which = vm.toString(index - 1);
        if (record.forged) note(string.concat("order ", which, ": filled with a forged signature"));
        if (record.oversized) note(string.concat("order ", which, ": filled above MAX_AMOUNT"));
        if (ghost.cancelled) note(string.concat("order ", which, ": filled after its cancellation"));
        if (order.info.nonce < nonceFloorOf(order.info.swapper)) note(string.concat("order ", which, ": filled below a floor"));
        if (order.info.deadline < vm.getBlockTimestamp()) note(string.concat("order ", which, ": filled past its deadline"));
        if (taking && order.makerOnly) note(string.concat("order ", which, ": makerOnly, yet took"));
        if (taking && order.takerOnce && ghost.takes > 1) note(string.concat("order ", which, ": takerOnce, yet took twice"));
    }

    function settleId(uint64 fillId) internal {
        if (seenId[fillId]) note(string.concat("fill id ", vm.toString(fillId), " settled twice"));
        seenId[fillId] = true;
        settledIds.push(fillId);
    }

    /// As many settled outcomes as settled fills in the events, and each refusal blames the party
    /// its reason names (or, for reasons of a signed order's state, one of the two).
    function checkOutcomes(IReactor.RawOutcome[] memory outcomes, uint256 settled) internal {
        uint256 none;
        for (uint256 i; i < outcomes.length; ++i) {
            uint8 reason = outcomes[i].reason;
            uint8 party = outcomes[i].party;
            if (reason == uint8(Reject.None)) {
                ++none;
                if (party != uint8(Party.None)) note("a settled fill blames a party");
                continue;
            }
            ++rejectedFills;
            ++rejections[reason];
            if (reason > uint8(type(Reject).max)) continue; // a reason added since: not judged here
            if (party > uint8(type(Party).max) || !blames(Reject(reason), Party(party))) {
                note(
                    string.concat("reason ", vm.toString(uint256(reason)), " blames party ", vm.toString(uint256(party)))
                );
            }
        }
        if (none != settled) {
            note(string.concat(vm.toString(none), " outcomes settled, but ", vm.toString(settled), " fill events"));
        }
    }

    /// Whether `reason` may blame `party`: a signed order's state blames its own side (either),
    /// AmountTooLarge an order (either) or a fill (none), the rest the party they name or none.
    function blames(Reject reason, Party party) internal pure returns (bool) {
        if (
            reason == Reject.WrongReactor || reason == Reject.Expired || reason == Reject.NonceBelowFloor
                || reason == Reject.Cancelled || reason == Reject.BadSignature || reason == Reject.ValidationContract
        ) return party != Party.None;
        if (reason == Reject.AmountTooLarge) return true;
        if (
            reason == Reject.MakerOverfill || reason == Reject.MakerFeeCap || reason == Reject.MakerTransfer
                || reason == Reject.MakerRefused
        ) return party == Party.Maker;
        if (
            reason == Reject.MakerOnly || reason == Reject.TakerOnce || reason == Reject.TakerOverfill
                || reason == Reject.TakerFeeCap || reason == Reject.TakerTransfer || reason == Reject.TakerRefused
        ) return party == Party.Taker;
        return party == Party.None;
    }

    // --- views for the invariants ---

    function recordCount() external view returns (uint256) {
        return records.length;
    }

    function orderAt(uint256 index) external view returns (PartialFillLimitOrder memory order, bytes32 hash) {
        return (records[index].order, records[index].hash);
    }

    function ghostOf(bytes32 hash) external view returns (Ghost memory) {
        return ghosts[hash];
    }

    function settledIdList() external view returns (uint64[] memory) {
        return settledIds;
    }

    function tokens() external view returns (address[] memory) {
        return tokenList;
    }

    function actorList() external view returns (address[ACTORS] memory) {
        return actors;
    }

    function reactorAddress() external view returns (IReactor) {
        return reactor;
    }

    /// Where order `index` is paid: an address of its own, so its balance is what the order got.
    function recipientOf(uint256 index) public pure returns (address) {
        return address(uint160(uint256(keccak256(abi.encode("reactor handler recipient", index)))));
    }

    function nonceFloorOf(address swapper) public view returns (uint256) {
        uint256 own = ownFloor[swapper];
        uint256 operators = operatorFloor[swapper];
        return own > operators ? own : operators;
    }

    // --- helpers ---

    function signedOf(uint256 index) internal view returns (SignedOrder memory) {
        return SignedOrder(records[index].order, records[index].signature);
    }

    function remaining(Record storage record) internal view returns (uint256) {
        (uint256 paid,) = reactor.progress(record.hash);
        return record.order.input.amount > paid ? record.order.input.amount - paid : 0;
    }

    function reservesOf(IPair pair, address tokenIn) internal view returns (uint256 reserveIn, uint256 reserveOut) {
        (uint256 reserve0, uint256 reserve1,) = pair.getReserves();
        (reserveIn, reserveOut) = tokenIn == pair.token0() ? (reserve0, reserve1) : (reserve1, reserve0);
    }

    function actorOf(address swapper) internal view returns (uint256) {
        for (uint256 i; i < ACTORS; ++i) if (actors[i] == swapper) return i;
        return 0;
    }

    /// A signed cap as the most a fill may charge: never above the whole amount.
    function capped(uint32 cap) internal pure returns (uint256) {
        return cap < PIPS ? cap : PIPS;
    }

    /// `value + step`, or the largest uint256 where that would overflow.
    function above(uint256 value, uint256 step) internal pure returns (uint256) {
        return value > type(uint256).max - step ? type(uint256).max : value + step;
    }

    /// A seed whose every bit is as likely set as not: the fuzzer favours small and edge values,
    /// which would otherwise make every "one in n" choice (seed % n == 0) come up far too often.
    function mixed(uint256 seed) internal pure returns (uint256) {
        return uint256(keccak256(abi.encode(seed)));
    }

    function ceilDiv(uint256 a, uint256 b) internal pure returns (uint256) {
        return a / b + (a % b == 0 ? 0 : 1);
    }

    function breach(string memory what, bytes memory reason) internal {
        note(string.concat(what, " with ", vm.toString(reason)));
    }

    function note(string memory what) internal {
        if (bytes(violation).length == 0) violation = what;
    }
}
