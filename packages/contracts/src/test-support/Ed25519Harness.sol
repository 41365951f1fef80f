// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Ed25519} from "../devnet/Ed25519.sol";
import {Sha512} from "../devnet/Sha512.sol";

/// Exposes the devnet's SHA-512 and Ed25519 libraries to the tests, with the gas of a verification.
contract Ed25519Harness {
    function sha512(bytes memory message) external pure returns (bytes memory) {
        (bytes32 high, bytes32 low) = Sha512.hash(message);
        return abi.encodePacked(high, low);
    }

    function verify(bytes32 publicKey, bytes memory message, bytes memory signature)
        external
        view
        returns (bool valid, uint256 gasUsed)
    {
        uint256 before = gasleft();
        valid = Ed25519.verify(publicKey, message, signature);
        gasUsed = before - gasleft();
    }
}
