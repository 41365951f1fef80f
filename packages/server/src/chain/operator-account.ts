import { type Hex, type LocalAccount, serializeTransaction, type TransactionSerializable, toHex } from 'viem';
import { privateKeyToAccount, toAccount } from 'viem/accounts';
import { keccak256 } from '../crypto/keccak.js';
import { signDigest } from '../crypto/secp256k1.js';

/**
 * The operator's account for viem, signing its transactions with native keccak and libsecp256k1:
 * a settlement transaction carries about 120 kB of calldata, which viem's JavaScript keccak hashes
 * in about 15 ms. Messages and typed data, which the operator does not sign in the service's hot
 * path, go through viem's own signer. Same signatures either way (RFC 6979, low s).
 */
export function operatorAccount(privateKey: Hex): LocalAccount {
  const local = privateKeyToAccount(privateKey);
  const key = bytesOf(privateKey);
  return toAccount({
    address: local.address,
    signMessage: local.signMessage,
    signTypedData: local.signTypedData,
    async signTransaction(transaction, options) {
      const serializer = options?.serializer ?? serializeTransaction;
      // A blob transaction signs its payload without the sidecars (EIP-4844), as viem's signer does.
      const signable: TransactionSerializable =
        transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      const digest = keccak256(bytesOf(await serializer(signable)));
      const { signature, recovery } = signDigest(digest, key);
      return serializer(transaction, {
        r: toHex(signature.subarray(0, 32)),
        s: toHex(signature.subarray(32, 64)),
        v: recovery === 0 ? 27n : 28n,
        yParity: recovery,
      });
    },
  });
}

/** Hex to bytes natively (viem's hexToBytes walks the string in JavaScript). */
function bytesOf(hex: Hex): Uint8Array {
  return Buffer.from(hex.slice(2), 'hex');
}
