// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ITestToken} from "../support/AmmInterfaces.sol";
import {Test} from "../support/Test.sol";
import {AssociationHandler} from "./AssociationHandler.sol";

/// TestToken's association rules under any sequence of associations, dissociations, mints and
/// transfers: no account without code that is not associated ever holds the token, and the token
/// answers `isAssociated` as the handler's model says.
contract AssociationInvariantTest is Test {
    AssociationHandler internal handler;

    function setUp() public {
        handler = new AssociationHandler();
        targetContract(address(handler));
        bytes4[] memory selectors = new bytes4[](4);
        selectors[0] = AssociationHandler.associate.selector;
        selectors[1] = AssociationHandler.dissociate.selector;
        selectors[2] = AssociationHandler.mint.selector;
        selectors[3] = AssociationHandler.transfer.selector;
        targetSelector(address(handler), selectors);
    }

    function invariant_everyActionWasAcceptedOrRefusedAsTheLedgerWould() public view {
        string memory violation = handler.violation();
        assertTrue(bytes(violation).length == 0, violation);
    }

    function invariant_noAccountNotAssociatedHoldsTheToken() public {
        ITestToken token = handler.token();
        address[] memory actors = handler.actorList();
        for (uint256 i; i < actors.length; ++i) {
            bool modelled = handler.modelAssociated(actors[i]);
            if (!modelled) assertEq(token.balanceOf(actors[i]), 0, "balance of an account not associated");
            vm.prank(actors[i]);
            assertEq(token.isAssociated(), modelled, "isAssociated as the model says");
        }
    }
}
