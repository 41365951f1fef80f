// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// A plain ERC-20 for the devnet. It has no constructor so the devnet can install its code at a
/// token's ledger address (as the ledger's own tokens have) and then initialise it once; the
/// minter (the devnet operator) mints, and may add other minters (the farm mints SAUCE rewards);
/// everything else is the standard token.
contract TestToken {
    error NotMinter();
    error AlreadyInitialized();
    error InsufficientBalance();
    error InsufficientAllowance();

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

    function mint(address to, uint256 amount) external {
        if (msg.sender != minter && !isMinter[msg.sender]) revert NotMinter();
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
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
