// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// A well-behaved ERC-20 that anyone may mint: the baseline the hostile tokens below bend.
contract PlainToken {
    error InsufficientBalance();
    error InsufficientAllowance();

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    string public name;
    string public symbol;
    uint8 public immutable decimals;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    constructor(string memory name_, uint8 decimals_) {
        name = name_;
        symbol = name_;
        decimals = decimals_;
    }

    function mint(address to, uint256 amount) external {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external virtual returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external virtual returns (bool) {
        _spendAllowance(from, amount);
        _move(from, to, amount);
        return true;
    }

    function _spendAllowance(address from, uint256 amount) internal {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed == type(uint256).max) return;
        if (allowed < amount) revert InsufficientAllowance();
        allowance[from][msg.sender] = allowed - amount;
    }

    /// Moves `amount` from `from`, of which `to` receives all (hostile tokens override this).
    function _move(address from, address to, uint256 amount) internal virtual {
        uint256 balance = balanceOf[from];
        if (balance < amount) revert InsufficientBalance();
        unchecked {
            balanceOf[from] = balance - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

/// Burns `feeBps` basis points of every transfer: the recipient receives less than was sent.
contract FeeOnTransferToken is PlainToken {
    uint256 public immutable feeBps;

    constructor(string memory name_, uint8 decimals_, uint256 feeBps_) PlainToken(name_, decimals_) {
        require(feeBps_ <= 10_000, "fee over 100 %");
        feeBps = feeBps_;
    }

    function _move(address from, address to, uint256 amount) internal override {
        uint256 fee = (amount * feeBps) / 10_000;
        super._move(from, to, amount);
        balanceOf[to] -= fee;
        totalSupply -= fee;
        emit Transfer(to, address(0), fee);
    }
}

/// A token that refuses transfers to or from certain accounts (a sanctions list, a frozen account)
/// is src/test-support/FreezingToken.sol, which the TypeScript tests use too: the suites deploy it
/// from the via-IR build (Cheats.deploy) and call it through this interface.
interface IFreezingToken {
    error AccountFrozen(address account);
    error NotMinter();

    /// Once, naming the only account that mints and freezes.
    function initialize(string calldata name, string calldata symbol, uint8 decimals, address minter) external;
    function mint(address to, uint256 amount) external;
    /// A frozen account can neither send nor receive the token.
    function setFrozen(address account, bool frozen) external;
    function frozen(address account) external view returns (bool);
    function balanceOf(address account) external view returns (uint256);
    function approve(address spender, uint256 amount) external returns (bool);
    function transfer(address to, uint256 amount) external returns (bool);
    /// HIP-719: a devnet token pays only accounts associated with it (contracts count as associated).
    function associate() external returns (uint256 responseCode);
}

/// Returns false instead of reverting when a transfer cannot be made, and for every transfer
/// (moving nothing) while `refuseAll` is set.
contract FalseReturningToken is PlainToken {
    bool public refuseAll;

    constructor(string memory name_, uint8 decimals_) PlainToken(name_, decimals_) {}

    function setRefuseAll(bool refuse) external {
        refuseAll = refuse;
    }

    function transfer(address to, uint256 amount) external override returns (bool) {
        if (refuseAll || balanceOf[msg.sender] < amount) return false;
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external override returns (bool) {
        if (refuseAll || balanceOf[from] < amount || allowance[from][msg.sender] < amount) return false;
        _spendAllowance(from, amount);
        _move(from, to, amount);
        return true;
    }
}

/// After each transfer calls a configured target with configured data (once per arming), the way
/// an ERC-777 hook hands control to someone in the middle of the caller's code.
contract ReentrantToken is PlainToken {
    address public hookTarget;
    bytes public hookData;
    /// The outcome of the last hook call: whether it succeeded and what it returned or reverted with.
    bool public hookSucceeded;
    bytes public hookResult;

    constructor(string memory name_, uint8 decimals_) PlainToken(name_, decimals_) {}

    /// Arms the hook: the next transfer calls `target` with `data`.
    function setHook(address target, bytes calldata data) external {
        hookTarget = target;
        hookData = data;
    }

    function _move(address from, address to, uint256 amount) internal override {
        super._move(from, to, amount);
        address target = hookTarget;
        if (target == address(0)) return;
        hookTarget = address(0); // disarmed first, so the hook cannot recurse through itself
        (hookSucceeded, hookResult) = target.call(hookData);
    }
}

/// Burns all the gas it is given on every transfer while armed (a token that can freeze callers).
contract GasBurnerToken is PlainToken {
    bool public armed;

    constructor(string memory name_, uint8 decimals_) PlainToken(name_, decimals_) {}

    function setArmed(bool armed_) external {
        armed = armed_;
    }

    function _move(address from, address to, uint256 amount) internal override {
        if (armed) {
            assembly {
                invalid() // consumes all remaining gas of this call
            }
        }
        super._move(from, to, amount);
    }
}
