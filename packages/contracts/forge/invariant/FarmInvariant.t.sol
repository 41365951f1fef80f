// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IFarm} from "../support/AmmInterfaces.sol";
import {Test} from "../support/Test.sol";
import {FarmHandler} from "./FarmHandler.sol";

/// The farm's promises under any sequence of FarmHandler's actions: the rewards paid and still
/// owed never exceed what the emission rates released ("dust is never paid, never overpaid"),
/// native coin is neither created nor lost, and every staked LP unit is accounted for.
contract FarmInvariantTest is Test {
    FarmHandler internal handler;

    function setUp() public {
        handler = new FarmHandler();
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](10);
        selectors[0] = FarmHandler.deposit.selector;
        selectors[1] = FarmHandler.withdraw.selector;
        selectors[2] = FarmHandler.harvest.selector;
        selectors[3] = FarmHandler.emergencyWithdraw.selector;
        selectors[4] = FarmHandler.passTime.selector;
        selectors[5] = FarmHandler.setEmissions.selector;
        selectors[6] = FarmHandler.setAllocation.selector;
        selectors[7] = FarmHandler.fund.selector;
        selectors[8] = FarmHandler.deposit.selector; // stakes more often than the owner acts
        selectors[9] = FarmHandler.passTime.selector;
        targetSelector(address(handler), selectors);
    }

    function invariant_noActionReverts() public view {
        string memory violation = handler.violation();
        assertTrue(bytes(violation).length == 0, violation);
    }

    /// SAUCE minted plus SAUCE pending never exceed the SAUCE emitted; the same for native coin,
    /// which the farm's balance and the stakers' hold exactly as it was funded.
    function invariant_rewardsNeverExceedEmissions() public view {
        IFarm farm = handler.farm();
        address[] memory actors = handler.actorList();
        (uint256 emittedSauce, uint256 emittedNative) = handler.emittedNow();
        uint256 sauceOwed;
        uint256 nativeOwed;
        uint256 nativePaid;
        for (uint256 i; i < actors.length; ++i) {
            nativePaid += actors[i].balance;
            for (uint256 pid; pid < handler.POOLS(); ++pid) {
                sauceOwed += farm.pendingSauce(pid, actors[i]);
                nativeOwed += farm.pendingNative(pid, actors[i]);
            }
        }
        uint256 sauceMinted = handler.sauce().totalSupply();
        assertLe(sauceMinted, emittedSauce, "SAUCE minted vs emitted");
        assertLe(sauceMinted + sauceOwed, emittedSauce, "SAUCE minted + pending vs emitted");
        assertLe(nativePaid + nativeOwed, emittedNative, "native paid + pending vs emitted");
        assertEq(address(farm).balance + nativePaid, handler.funded(), "native coin: farm + stakers = funded");
    }

    /// Per pool, tighter: what its stakers were paid and have pending is at most what the pool
    /// released while it had stake (to within the 1e-18 the ghost rounds off).
    function invariant_eachPoolPaysAtMostWhatItReleased() public view {
        IFarm farm = handler.farm();
        address[] memory actors = handler.actorList();
        for (uint256 pid; pid < handler.POOLS(); ++pid) {
            uint256 owed;
            for (uint256 i; i < actors.length; ++i) owed += farm.pendingSauce(pid, actors[i]);
            uint256 released = handler.releasedNowE18(pid);
            assertLe((handler.paidSauce(pid) + owed) * 1e18, released + 1e18, "pool's SAUCE paid + pending vs released, 1e-18 units");
        }
    }

    /// Each pool's LP balance at the farm is its recorded stake, the sum of its stakers' amounts.
    function invariant_stakesAreAccountedFor() public view {
        IFarm farm = handler.farm();
        address[] memory actors = handler.actorList();
        for (uint256 pid; pid < handler.POOLS(); ++pid) {
            (, , , , , uint256 totalStaked) = farm.poolInfo(pid);
            uint256 sum;
            for (uint256 i; i < actors.length; ++i) {
                (uint256 amount, , , ) = farm.userInfo(pid, actors[i]);
                sum += amount;
            }
            assertEq(sum, totalStaked, "stakers' amounts = totalStaked");
            assertEq(handler.lpToken(pid).balanceOf(address(farm)), totalStaked, "LP held = totalStaked");
        }
    }
}
