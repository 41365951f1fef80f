// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// The ledger's account-key system contract, at address 0x16a on every network of the ledger
/// (a devnet installs DevnetAccountKeyService there). It answers whether `signature` was made over
/// `messageHash` by the key of `account`.
interface IAccountKeys {
    function isAuthorizedRaw(address account, bytes memory messageHash, bytes memory signature)
        external
        returns (bool);
}
