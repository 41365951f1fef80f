// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAccountKeys} from "../interfaces/IAccountKeys.sol";
import {Ed25519} from "./Ed25519.sol";

/// The devnet's stand-in for the ledger's account-key system contract at 0x16a: a registry of the
/// devnet accounts' Ed25519 keys, kept by the registrar (the devnet operator), that checks
/// signatures against them. Accounts with secp256k1 keys never come here (the reactor checks those
/// with ecrecover). It has no constructor so the devnet can install its code at 0x16a and then
/// initialise it once.
contract DevnetAccountKeyService is IAccountKeys {
    error NotRegistrar();
    error AlreadyInitialized();

    /// A zero key means the account's key was removed.
    event Ed25519KeySet(address indexed account, bytes32 publicKey);

    address public registrar;
    mapping(address account => bytes32 publicKey) public ed25519KeyOf;

    function initialize(address registrar_) external {
        if (registrar != address(0) || registrar_ == address(0)) revert AlreadyInitialized();
        registrar = registrar_;
    }

    /// Registers `account`'s Ed25519 public key (RFC 8032 encoding); the zero key clears it.
    function setEd25519Key(address account, bytes32 publicKey) external {
        if (msg.sender != registrar) revert NotRegistrar();
        ed25519KeyOf[account] = publicKey;
        emit Ed25519KeySet(account, publicKey);
    }

    /// Whether `signature` is a valid Ed25519 signature of the `messageHash` bytes (the message
    /// as given, not hashed again) by `account`'s registered key. False, never a revert, for an
    /// account without a key and for any signature the strict policy refuses.
    function isAuthorizedRaw(address account, bytes memory messageHash, bytes memory signature)
        external
        view
        returns (bool)
    {
        bytes32 publicKey = ed25519KeyOf[account];
        return publicKey != bytes32(0) && Ed25519.verify(publicKey, messageHash, signature);
    }
}
