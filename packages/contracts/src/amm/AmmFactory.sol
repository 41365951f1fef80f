// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {AmmPair} from "./AmmPair.sol";

/// Creates one AmmPair per unordered token pair and holds the protocol-fee switch: while `feeTo`
/// is set, every pair mints 1/6 of its fee growth to it (see AmmPair).
contract AmmFactory {
    error IdenticalTokens();
    error ZeroAddress();
    error PairExists(address pair);
    error NotFeeToSetter();

    /// `index` is the pair's position in `allPairs` (0 for the first pair).
    event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index);
    event FeeToSet(address feeTo);
    event FeeToSetterSet(address feeToSetter);

    address public feeTo;
    address public feeToSetter;
    /// Filled for both orders of the tokens.
    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    constructor(address feeToSetter_) {
        feeToSetter = feeToSetter_;
    }

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        if (tokenA == tokenB) revert IdenticalTokens();
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        if (token0 == address(0)) revert ZeroAddress();
        address existing = getPair[token0][token1];
        if (existing != address(0)) revert PairExists(existing);
        // create2 salted with the sorted tokens: a pair's address follows from its tokens alone.
        pair = address(new AmmPair{salt: keccak256(abi.encode(token0, token1))}(token0, token1));
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        emit PairCreated(token0, token1, pair, allPairs.length);
        allPairs.push(pair);
    }

    /// address(0) switches the protocol fee off.
    function setFeeTo(address feeTo_) external {
        if (msg.sender != feeToSetter) revert NotFeeToSetter();
        feeTo = feeTo_;
        emit FeeToSet(feeTo_);
    }

    function setFeeToSetter(address feeToSetter_) external {
        if (msg.sender != feeToSetter) revert NotFeeToSetter();
        feeToSetter = feeToSetter_;
        emit FeeToSetterSet(feeToSetter_);
    }
}
