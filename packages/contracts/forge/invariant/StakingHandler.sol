// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IStaking} from "../support/AmmInterfaces.sol";
import {Cheats} from "../support/Test.sol";
import {PlainToken} from "../support/Tokens.sol";

/// Drives SauceStaking for three stakers: entries and exits of any size (a single unit included,
/// the first-depositor attack's opening) and SAUCE sent straight to the contract (rewards, or an
/// attacker's donation). Checks across each action what must hold, keeping the first breach.
contract StakingHandler is Cheats {
    uint256 internal constant ACTORS = 3;
    uint256 internal constant FUNDS = 1e24;
    /// What an entry may lose to rounding: one SAUCE unit.
    uint256 public constant DUST = 1;

    PlainToken public immutable sauce;
    IStaking public immutable staking;
    address[] public actors;

    string public violation;
    /// The largest loss any entry made (SAUCE paid less what its shares redeemed right after).
    uint256 public worstEntryLoss;
    mapping(bytes32 => uint256) public calls;

    constructor() {
        sauce = new PlainToken("SAUCE", 6);
        staking = IStaking(deploy("SauceStaking.sol:SauceStaking", abi.encode(address(sauce))));
        for (uint256 i; i < ACTORS; ++i) {
            address actor = makeAddr(string.concat("staker", vm.toString(i)));
            actors.push(actor);
            sauce.mint(actor, FUNDS);
            vm.prank(actor);
            sauce.approve(address(staking), type(uint256).max);
        }
    }

    function enter(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 amount = amountUpTo(seed, sauce.balanceOf(actor));
        if (amount == 0 || staking.sharesFor(amount) == 0) return; // refused, as it must be
        (uint256 held, uint256 supply) = state();
        uint256 walletBefore = sauce.balanceOf(actor);
        vm.prank(actor);
        try staking.enter(amount) returns (uint256 shares) {
            uint256 paid = walletBefore - sauce.balanceOf(actor);
            uint256 worth = staking.sauceFor(shares);
            if (paid > amount) note(string.concat("enter pulled ", vm.toString(paid), " of ", vm.toString(amount), " offered"));
            if (paid > worth) {
                uint256 loss = paid - worth;
                if (loss > worstEntryLoss) worstEntryLoss = loss;
                if (loss > DUST) {
                    note(string.concat("an entry of ", vm.toString(paid), " lost ", vm.toString(loss), " to earlier stakers"));
                }
            }
        } catch (bytes memory reason) {
            note(string.concat("enter reverted with ", vm.toString(reason)));
            return;
        }
        priceDidNotFall("enter", held, supply);
        ++calls[keccak256("enter")];
    }

    function leave(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 shares = amountUpTo(seed, staking.balanceOf(actor));
        if (shares == 0) return;
        uint256 owed = staking.sauceFor(shares);
        if (owed == 0) return; // refused, as it must be
        (uint256 held, uint256 supply) = state();
        uint256 walletBefore = sauce.balanceOf(actor);
        vm.prank(actor);
        try staking.leave(shares) {
            if (sauce.balanceOf(actor) - walletBefore != owed) note("leave paid other than sauceFor");
        } catch (bytes memory reason) {
            note(string.concat("leave reverted with ", vm.toString(reason)));
            return;
        }
        priceDidNotFall("leave", held, supply);
        ++calls[keccak256("leave")];
    }

    /// SAUCE sent straight to the contract: a reward, or the attacker's donation.
    function donate(uint256 actorSeed, uint256 seed) external {
        address actor = actorOf(actorSeed);
        uint256 amount = amountUpTo(seed, sauce.balanceOf(actor));
        if (amount == 0) return;
        (uint256 held, uint256 supply) = state();
        vm.prank(actor);
        if (!sauce.transfer(address(staking), amount)) note("donation failed");
        priceDidNotFall("donate", held, supply);
        ++calls[keccak256("donate")];
    }

    function state() public view returns (uint256 held, uint256 supply) {
        return (staking.sauceHeld(), staking.totalSupply());
    }

    function actorList() external view returns (address[] memory) {
        return actors;
    }

    /// held / supply after >= held / supply before, while there are shares before and after.
    function priceDidNotFall(string memory action, uint256 heldBefore, uint256 supplyBefore) internal {
        (uint256 held, uint256 supply) = state();
        if (supplyBefore == 0 || supply == 0) return;
        if (held * supplyBefore < heldBefore * supply) {
            note(
                string.concat(
                    action,
                    ": SAUCE per share fell from ",
                    vm.toString(heldBefore),
                    "/",
                    vm.toString(supplyBefore),
                    " to ",
                    vm.toString(held),
                    "/",
                    vm.toString(supply)
                )
            );
        }
    }

    function actorOf(uint256 seed) internal view returns (address) {
        return actors[seed % ACTORS];
    }

    function note(string memory what) internal {
        if (bytes(violation).length == 0) violation = what;
    }
}
