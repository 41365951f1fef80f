// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {ITestToken} from "./support/AmmInterfaces.sol";
import {Test} from "./support/Test.sol";
import {PlainToken} from "./support/Tokens.sol";

/// The devnet token pays only accounts associated with it, as a ledger token does (HIP-719's
/// `associate`, `dissociate`, `isAssociated` on the token's own address).
contract TestTokenAssociationTest is Test {
    /// The ledger's response code SUCCESS.
    uint256 internal constant SUCCESS = 22;
    /// TestToken's storage slot of `balanceOf` (after name, symbol, decimals with minter, totalSupply).
    uint256 internal constant BALANCES_SLOT = 4;

    address internal treasury = makeAddr("treasury");
    address internal alice = makeAddr("alice");
    address internal bob = makeAddr("bob");
    ITestToken internal token;

    function setUp() public {
        token = ITestToken(deploy("TestToken.sol:TestToken", ""));
        token.initialize("TKN", "TKN", 6, treasury);
    }

    function associate(address account) internal {
        vm.prank(account);
        assertEq(token.associate(), SUCCESS, "associate answers SUCCESS");
    }

    function associated(address account) internal returns (bool) {
        vm.prank(account);
        return token.isAssociated();
    }

    function mint(address to, uint256 amount) internal {
        vm.prank(treasury);
        token.mint(to, amount);
    }

    function test_anAccountReceivesOnlyOnceAssociated() public {
        assertFalse(associated(alice), "a new account is not associated");
        vm.prank(treasury);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, alice));
        token.mint(alice, 1);
        associate(alice);
        assertTrue(associated(alice), "associated");
        mint(alice, 5);
        assertEq(token.balanceOf(alice), 5, "minted");
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenAlreadyAssociatedToAccount.selector, alice));
        token.associate();
    }

    function test_transfersToAnAccountNotAssociatedRevert() public {
        associate(alice);
        mint(alice, 10);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, bob));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(bob, 1); // reverts: nothing returned to check
        vm.prank(alice);
        token.approve(address(this), 10);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, bob));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transferFrom(alice, bob, 1); // reverts: nothing returned to check
        vm.prank(alice);
        assertTrue(token.transfer(bob, 0), "moving nothing needs no association");
        associate(bob);
        vm.prank(alice);
        assertTrue(token.transfer(bob, 4), "transfer once associated");
        assertEq(token.balanceOf(bob), 4, "received");
    }

    function test_dissociatingNeedsAZeroBalance() public {
        associate(alice);
        associate(bob);
        mint(alice, 3);
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TransactionRequiresZeroTokenBalances.selector, alice));
        token.dissociate();
        vm.prank(alice);
        assertTrue(token.transfer(bob, 3), "spends it all");
        vm.prank(alice);
        assertEq(token.dissociate(), SUCCESS, "dissociate answers SUCCESS");
        assertFalse(associated(alice), "dissociated");
        vm.prank(bob);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, alice));
        // forge-lint: disable-next-line(erc20-unchecked-transfer)
        token.transfer(alice, 1); // reverts: nothing returned to check
        vm.prank(alice);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, alice));
        token.dissociate();
    }

    /// On the ledger the treasury is associated from the token's creation and cannot dissociate.
    function test_theMinterIsAssociatedForGood() public {
        assertTrue(associated(treasury), "the treasury");
        mint(treasury, 7);
        vm.prank(treasury);
        assertTrue(token.transfer(address(this), 7), "pays a contract");
        vm.prank(treasury);
        vm.expectRevert(abi.encodeWithSelector(ITestToken.AccountIsTreasury.selector, treasury));
        token.dissociate();
    }

    /// Contracts (the reactor, Permit2, pairs, the farm) associate themselves on the ledger.
    function test_contractsCountAsAssociated() public {
        address pair = address(new PlainToken("PAIR", 18));
        mint(pair, 9);
        assertEq(token.balanceOf(pair), 9, "a contract receives without asking");
        assertTrue(associated(pair), "and says it is associated");
    }

    /// A balance written before associations existed (a devnet state file made earlier) stands for
    /// the association, and the association stays once the balance is spent.
    function test_aBalanceFromBeforeAssociationsStandsForOne() public {
        vm.store(address(token), keccak256(abi.encode(bob, BALANCES_SLOT)), bytes32(uint256(50)));
        assertEq(token.balanceOf(bob), 50, "the old balance");
        assertTrue(associated(bob), "holding it, bob is associated");
        associate(alice);
        vm.prank(bob);
        assertTrue(token.transfer(alice, 50), "bob spends it all");
        assertTrue(associated(bob), "and stays associated");
        vm.prank(alice);
        assertTrue(token.transfer(bob, 1), "so he can receive again");
    }

    function testFuzz_mintReachesOnlyAssociatedAccounts(address to, uint96 amount, bool associates) public {
        vm.assume(to != treasury && to.code.length == 0);
        amount = uint96(bound(amount, 1, type(uint96).max));
        if (associates) associate(to);
        vm.prank(treasury);
        if (!associates) vm.expectRevert(abi.encodeWithSelector(ITestToken.TokenNotAssociatedToAccount.selector, to));
        token.mint(to, amount);
        assertEq(token.balanceOf(to), associates ? amount : 0, "balance");
    }

    function testFuzz_anAccountKeepsItsAssociationWhateverItSpends(uint96 minted, uint96 spent) public {
        minted = uint96(bound(minted, 1, type(uint96).max));
        spent = uint96(bound(spent, 0, minted));
        associate(alice);
        associate(bob);
        mint(alice, minted);
        vm.prank(alice);
        assertTrue(token.transfer(bob, spent), "transfer");
        assertTrue(associated(alice), "the sender");
        assertTrue(associated(bob), "the recipient");
        assertEq(token.balanceOf(alice) + token.balanceOf(bob), minted, "nothing lost");
    }
}
