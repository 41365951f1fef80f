// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IAccountKeys} from "../interfaces/IAccountKeys.sol";

/// Checks an order's wire signature: mode byte 0x00, then either a 65-byte secp256k1 signature
/// (r, s, v) of the EIP-712 digest or a 64-byte Ed25519 signature of the 32-byte digest, which
/// the ledger's account-key system contract checks against the swapper's key.
library OrderSignatures {
    address internal constant ACCOUNT_KEYS = address(0x16a);
    /// Half the secp256k1 group order: a larger s is the malleable twin of a valid signature.
    uint256 internal constant HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0;
    bytes1 internal constant MODE_EIP712 = 0x00;

    function isValid(bytes calldata signature, bytes32 digest, address swapper) internal returns (bool) {
        if (signature.length == 0 || signature[0] != MODE_EIP712) return false;
        if (signature.length == 66) return isSecp256k1(signature[1:], digest, swapper);
        if (signature.length == 65) return isEd25519(signature[1:], digest, swapper);
        return false;
    }

    function isSecp256k1(bytes calldata sig, bytes32 digest, address swapper) private pure returns (bool) {
        bytes32 r = bytes32(sig[0:32]);
        bytes32 s = bytes32(sig[32:64]);
        uint8 v = uint8(sig[64]);
        if (v < 27) v += 27;
        if ((v != 27 && v != 28) || uint256(s) > HALF_ORDER) return false;
        address signer = ecrecover(digest, v, r, s);
        return signer != address(0) && signer == swapper;
    }

    function isEd25519(bytes calldata sig, bytes32 digest, address swapper) private returns (bool) {
        (bool ok, bytes memory result) =
            ACCOUNT_KEYS.call(abi.encodeCall(IAccountKeys.isAuthorizedRaw, (swapper, abi.encodePacked(digest), sig)));
        // An address without code answers ok with no data: not authorised.
        return ok && result.length == 32 && abi.decode(result, (bool));
    }
}
