// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// A plain ERC-20 for the devnet. It has no constructor so the devnet can install its code at a
/// token's ledger address (as the ledger's own tokens have) and then initialise it once; the
/// minter (the devnet operator) mints, and may add other minters (the farm mints SAUCE rewards).
/// As a ledger token does, it pays only accounts associated with it, through HIP-719's calls on the
/// token's own address (`associate`, `dissociate`, `isAssociated`); everything else is the standard
/// token.
contract TestToken {
    error NotMinter();
    error AlreadyInitialized();
    error InsufficientBalance();
    error InsufficientAllowance();
    /// The ledger's response codes of the same names, as reverts.
    error TokenNotAssociatedToAccount(address account);
    error TokenAlreadyAssociatedToAccount(address account);
    error TransactionRequiresZeroTokenBalances(address account);
    error AccountIsTreasury(address account);

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event MinterAdded(address indexed account);

    string public name;
    string public symbol;
    uint8 public decimals;
    address public minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    // Appended after the original variables so tokens installed before keep their layout.
    mapping(address => bool) public isMinter;
    // Appended after isMinter, for the same reason.
    mapping(address => bool) internal associations;

    /// The ledger's response code SUCCESS, which HIP-719's calls return.
    uint256 internal constant SUCCESS = 22;

    function initialize(string calldata name_, string calldata symbol_, uint8 decimals_, address minter_) external {
        if (minter != address(0) || minter_ == address(0)) revert AlreadyInitialized();
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        minter = minter_;
    }

    /// Lets `account` mint too; only the minter named at initialisation adds minters.
    function addMinter(address account) external {
        if (msg.sender != minter) revert NotMinter();
        isMinter[account] = true;
        emit MinterAdded(account);
    }

    /// HIP-719: associates the caller with the token, after which it may receive it.
    function associate() external returns (uint256 responseCode) {
        if (associatedWith(msg.sender)) revert TokenAlreadyAssociatedToAccount(msg.sender);
        associations[msg.sender] = true;
        return SUCCESS;
    }

    /// HIP-719: ends the caller's association; the ledger refuses it while the account holds any of
    /// the token, and for the token's treasury (here the minter).
    function dissociate() external returns (uint256 responseCode) {
        if (!associatedWith(msg.sender)) revert TokenNotAssociatedToAccount(msg.sender);
        if (balanceOf[msg.sender] != 0) revert TransactionRequiresZeroTokenBalances(msg.sender);
        if (msg.sender == minter) revert AccountIsTreasury(msg.sender);
        associations[msg.sender] = false;
        return SUCCESS;
    }

    /// HIP-719: whether the caller may receive the token.
    function isAssociated() external view returns (bool) {
        return associatedWith(msg.sender);
    }

    /**
     * Whether `account` may receive the token. Besides the accounts that associated themselves:
     * - contracts (code at the address: the reactor, Permit2, pairs, the farm): on the ledger a
     *   contract associates itself when it is deployed or first handles a token, or takes it through
     *   automatic association, so the devnet does not make them ask;
     * - the minter, as the ledger's treasury is associated with its token from its creation;
     * - an account holding a balance, since the ledger holds none without an association (and
     *   accounts funded by devnets made before associations existed keep trading).
     */
    function associatedWith(address account) internal view returns (bool) {
        // The cheapest reads first: a settlement's recipients mostly hold the token already.
        return balanceOf[account] != 0 || associations[account] || account.code.length != 0 || account == minter;
    }

    function mint(address to, uint256 amount) external {
        if (msg.sender != minter && !isMinter[msg.sender]) revert NotMinter();
        if (amount != 0 && !associatedWith(to)) revert TokenNotAssociatedToAccount(to);
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < amount) revert InsufficientAllowance();
            allowance[from][msg.sender] = allowed - amount;
        }
        move(from, to, amount);
        return true;
    }

    function move(address from, address to, uint256 amount) internal virtual {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance();
        // Moving nothing pays nobody (a pair's skim sends zero of a token it holds no excess of).
        if (amount != 0 && !associatedWith(to)) revert TokenNotAssociatedToAccount(to);
        // An account whose balance stood for its association keeps it once the balance is spent.
        if (balance == amount && amount != 0 && !associations[from]) associations[from] = true;
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
