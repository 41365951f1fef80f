// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAccountKeys} from "../interfaces/IAccountKeys.sol";
import {Ed25519} from "./Ed25519.sol";

/// The devnet's stand-in for the ledger's account-key system contract at 0x16a: it knows each
/// devnet account's current key and checks signatures against it, as the ledger's does.
///
/// - Ed25519 keys belong to the ledger's numbered accounts (long-zero addresses: twelve zero bytes,
///   then the account number), which the registrar (the devnet operator) creates; it cannot attach
///   a key to any other address, so never to an address an EVM key controls.
/// - An ECDSA account's key is the one its address derives from until the account rotates it: the
///   current key's holder names the next one, as a ledger key update is signed by the current key.
///   The address stays, and a rotated-out key signs nothing valid any more.
///
/// It has no constructor so the devnet can install its code at 0x16a and then initialise it once.
contract DevnetAccountKeyService is IAccountKeys {
    error NotRegistrar();
    error AlreadyInitialized();
    error NotLedgerNumbered(address account);
    error NotCurrentKey();

    /// A zero key means the account's key was removed.
    event Ed25519KeySet(address indexed account, bytes32 publicKey);
    event EcdsaKeyRotated(address indexed account, address signer);

    /// Half the secp256k1 group order: a larger s is the malleable twin of a valid signature.
    uint256 private constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;

    address public registrar;
    mapping(address account => bytes32 publicKey) public ed25519KeyOf;
    /// The address of an ECDSA account's current key, once rotated away from its own.
    mapping(address account => address signer) private rotatedSigner;

    function initialize(address registrar_) external {
        if (registrar != address(0) || registrar_ == address(0)) revert AlreadyInitialized();
        registrar = registrar_;
    }

    /// Registers a numbered account's Ed25519 public key (RFC 8032 encoding); the zero key clears it.
    function setEd25519Key(address account, bytes32 publicKey) external {
        if (msg.sender != registrar) revert NotRegistrar();
        if (uint160(account) >> 64 != 0 || account.code.length != 0) revert NotLedgerNumbered(account);
        ed25519KeyOf[account] = publicKey;
        emit Ed25519KeySet(account, publicKey);
    }

    /// Moves an ECDSA account to the key of `signer`; only the holder of its current key may.
    function rotateEcdsaKey(address account, address signer) external {
        if (msg.sender != ecdsaSignerOf(account) || signer == address(0)) revert NotCurrentKey();
        rotatedSigner[account] = signer;
        emit EcdsaKeyRotated(account, signer);
    }

    /// The address whose secp256k1 key signs for `account` now.
    function ecdsaSignerOf(address account) public view returns (address) {
        address rotated = rotatedSigner[account];
        return rotated == address(0) ? account : rotated;
    }

    /// Whether `signature` was made over `messageHash` by `account`'s current key: a 64-byte Ed25519
    /// signature of the bytes as given, or a 65-byte secp256k1 signature (r, s, v) of a 32-byte hash.
    /// False, never a revert, for an account without such a key and for any signature the strict
    /// policy refuses.
    function isAuthorizedRaw(address account, bytes memory messageHash, bytes memory signature)
        external
        view
        returns (bool)
    {
        bytes32 publicKey = ed25519KeyOf[account];
        if (signature.length == 65) return publicKey == bytes32(0) && isEcdsaSigner(account, messageHash, signature);
        return publicKey != bytes32(0) && Ed25519.verify(publicKey, messageHash, signature);
    }

    function isEcdsaSigner(address account, bytes memory messageHash, bytes memory signature) private view returns (bool) {
        if (messageHash.length != 32) return false;
        bytes32 hash;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            hash := mload(add(messageHash, 32))
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_ORDER) return false;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == ecdsaSignerOf(account);
    }
}
