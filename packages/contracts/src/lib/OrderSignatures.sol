// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAccountKeys} from "../interfaces/IAccountKeys.sol";

/// What a signature check found: valid, invalid, or unknown because the key service did not answer.
enum SignatureCheck {
    Invalid,
    Valid,
    Unavailable
}

/// Checks an order's wire signature: mode byte 0x00, then either a 65-byte secp256k1 signature
/// (r, s, v) of the EIP-712 digest or a 64-byte Ed25519 signature of the 32-byte digest.
///
/// The ledger's account-key system contract (at 0x16a) knows each account's current key. An
/// Ed25519 signature is checked there alone, and so is a secp256k1 one wherever the service
/// exists: on the ledger an ECDSA account keeps its EVM address when its key is rotated, so
/// `ecrecover` alone would accept a rotated-out key (and refuse the current one). On a chain
/// without the key service, `ecrecover` must give the swapper's address.
library OrderSignatures {
    address internal constant ACCOUNT_KEYS = address(0x16a);
    /// Half the secp256k1 group order: a larger s is the malleable twin of a valid signature.
    uint256 internal constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    bytes1 internal constant MODE_EIP712 = 0x00;

    function check(bytes calldata signature, bytes32 digest, address swapper) internal returns (SignatureCheck) {
        if (signature.length == 0 || signature[0] != MODE_EIP712) return SignatureCheck.Invalid;
        if (signature.length == 66) {
            bytes calldata sig = signature[1:];
            if (ACCOUNT_KEYS.code.length != 0) return wellFormed(sig) ? askKeyService(swapper, digest, sig) : SignatureCheck.Invalid;
            return recovers(sig, digest, swapper) ? SignatureCheck.Valid : SignatureCheck.Invalid;
        }
        if (signature.length == 65) {
            if (ACCOUNT_KEYS.code.length == 0) return SignatureCheck.Invalid;
            return askKeyService(swapper, digest, signature[1:]);
        }
        return SignatureCheck.Invalid;
    }

    /// A low-s signature with a recovery id of 0, 1, 27 or 28.
    function wellFormed(bytes calldata sig) private pure returns (bool) {
        uint8 v = uint8(sig[64]);
        return (v == 0 || v == 1 || v == 27 || v == 28) && uint256(bytes32(sig[32:64])) <= HALF_ORDER;
    }

    function recovers(bytes calldata sig, bytes32 digest, address swapper) private pure returns (bool) {
        if (!wellFormed(sig)) return false;
        uint8 v = uint8(sig[64]);
        address signer = ecrecover(digest, v < 27 ? v + 27 : v, bytes32(sig[0:32]), bytes32(sig[32:64]));
        return signer != address(0) && signer == swapper;
    }

    /// The key service's answer; a call that reverts, runs out of gas or answers nonsense tells
    /// nothing about the signature.
    function askKeyService(address swapper, bytes32 digest, bytes calldata sig) private returns (SignatureCheck) {
        (bool ok, bytes memory result) =
            ACCOUNT_KEYS.call(abi.encodeCall(IAccountKeys.isAuthorizedRaw, (swapper, abi.encodePacked(digest), sig)));
        if (!ok || result.length != 32) return SignatureCheck.Unavailable;
        uint256 answer = abi.decode(result, (uint256));
        if (answer > 1) return SignatureCheck.Unavailable;
        return answer == 1 ? SignatureCheck.Valid : SignatureCheck.Invalid;
    }
}
