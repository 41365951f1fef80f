import { type Hex, type LocalAccount, type Signature, serializeTransaction, type TransactionSerializable, toHex } from 'viem';
import { privateKeyToAccount, toAccount } from 'viem/accounts';
import { keccak256 } from '../../domain/signatures/keccak.js';
import { signDigest } from '../../domain/signatures/secp256k1.js';
import { eip1559Envelope, isPlainEip1559 } from './eip1559-envelope.js';

/**
 * The operator's account for viem, signing its transactions with native keccak and libsecp256k1,
 * and serializing its EIP-1559 transactions with Buffers: a settlement transaction carries about
 * 120 kB of calldata, which viem's JavaScript keccak hashes in about 15 ms and its serializer
 * walks in about 3 ms (twice per signature). Messages and typed data, which the operator does not
 * sign in the service's hot path, go through viem's own signer. Same signatures either way
 * (RFC 6979, low s).
 */
export function operatorAccount(privateKey: Hex): LocalAccount {
  const local = privateKeyToAccount(privateKey);
  const key = bytesOf(privateKey);
  const sign = (digest: Uint8Array): Signature => {
    const { signature, recovery } = signDigest(digest, key);
    return {
      r: toHex(signature.subarray(0, 32)),
      s: toHex(signature.subarray(32, 64)),
      v: recovery === 0 ? 27n : 28n,
      yParity: recovery,
    };
  };
  return toAccount({
    address: local.address,
    signMessage: local.signMessage,
    signTypedData: local.signTypedData,
    async signTransaction(transaction, options) {
      if (options?.serializer === undefined && isPlainEip1559(transaction)) {
        const signed = eip1559Envelope(transaction, sign(keccak256(eip1559Envelope(transaction))));
        return `0x02${signed.subarray(1).toString('hex')}` as `0x02${string}`;
      }
      const serializer = options?.serializer ?? serializeTransaction;
      // A blob transaction signs its payload without the sidecars (EIP-4844), as viem's signer does.
      const signable: TransactionSerializable =
        transaction.type === 'eip4844' ? { ...transaction, sidecars: false } : transaction;
      return serializer(transaction, sign(keccak256(bytesOf(await serializer(signable)))));
    },
  });
}

/** Hex to bytes natively (viem's hexToBytes walks the string in JavaScript). */
function bytesOf(hex: Hex): Uint8Array {
  return Buffer.from(hex.slice(2), 'hex');
}
