// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ITestToken} from "../support/AmmInterfaces.sol";
import {Cheats} from "../support/Test.sol";

/// Drives one TestToken through associations, dissociations, mints and transfers among a few
/// accounts without code, keeping its own model of who is associated. Each action works out from
/// the model whether the token must accept it; an acceptance it must refuse, or a refusal it must
/// not, is kept in `violation`.
contract AssociationHandler is Cheats {
    uint256 internal constant ACTORS = 4;
    uint256 internal constant MAX_MINT = 1e30;

    ITestToken public immutable token;
    address[] internal actors;
    /// The model: who associated and has not dissociated since.
    mapping(address => bool) public modelAssociated;

    string public violation;
    mapping(bytes32 => uint256) public calls;

    constructor() {
        token = ITestToken(deploy("TestToken.sol:TestToken", ""));
        token.initialize("TKN", "TKN", 6, address(this));
        for (uint256 i; i < ACTORS; ++i) actors.push(makeAddr(string.concat("holder", vm.toString(i))));
    }

    function actorList() external view returns (address[] memory) {
        return actors;
    }

    // --- actions ---

    function associate(uint256 actorSeed) external {
        address actor = actors[actorSeed % ACTORS];
        vm.prank(actor);
        try token.associate() {
            if (modelAssociated[actor]) note("associated twice");
            modelAssociated[actor] = true;
        } catch {
            if (!modelAssociated[actor]) note("refused an association");
        }
        ++calls["associate"];
    }

    function dissociate(uint256 actorSeed) external {
        address actor = actors[actorSeed % ACTORS];
        bool allowed = modelAssociated[actor] && token.balanceOf(actor) == 0;
        vm.prank(actor);
        try token.dissociate() {
            if (!allowed) note("dissociated while holding or not associated");
            modelAssociated[actor] = false;
        } catch {
            if (allowed) note("refused a dissociation of an empty account");
        }
        ++calls["dissociate"];
    }

    function mint(uint256 actorSeed, uint256 amountSeed) external {
        address actor = actors[actorSeed % ACTORS];
        try token.mint(actor, amountUpTo(amountSeed, MAX_MINT)) {
            if (!modelAssociated[actor]) note("minted to an account not associated");
        } catch {
            if (modelAssociated[actor]) note("refused a mint to an associated account");
        }
        ++calls["mint"];
    }

    function transfer(uint256 fromSeed, uint256 toSeed, uint256 amountSeed) external {
        address from = actors[fromSeed % ACTORS];
        address to = actors[toSeed % ACTORS];
        uint256 amount = amountUpTo(amountSeed, token.balanceOf(from));
        vm.prank(from);
        // Moving nothing pays nobody: it needs no association.
        bool allowed = modelAssociated[to] || amount == 0;
        try token.transfer(to, amount) {
            if (!allowed) note("paid an account not associated");
        } catch {
            if (allowed) note("refused a transfer to an associated account");
        }
        ++calls["transfer"];
    }

    function note(string memory what) internal {
        if (bytes(violation).length == 0) violation = what;
    }
}
