/**
 * Trading accounts of the benchmarks: half secp256k1 0x wallets, half Ed25519 ledger accounts
 * entered in the server's devnet registry. They log in with the challenge flow and sign order
 * digests with native code (libsecp256k1, node:crypto), fast enough to sign tens of thousands of
 * orders before a clock starts.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Address, Hex } from '@dex/core';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { SignerKey } from '../../packages/server/src/domain/signatures/order-signatures.js';
import type { HttpClient } from './http-client.js';
import { ask, type ServerProcess } from './server-process.js';

/** libsecp256k1 through the package the server uses; a client signs 40k orders in about a second with it. */
interface NativeSecp256k1 {
  ecdsaSign(message: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
}
const secp256k1 = createRequire(import.meta.url)('secp256k1') as NativeSecp256k1;

export type KeyKind = 'secp256k1' | 'ed25519';
/** A seller rests asks and takes bids; a buyer rests bids and takes asks. Nobody trades with itself. */
export type Role = 'seller' | 'buyer';

export type Signer =
  | { readonly kind: 'secp256k1'; readonly privateKey: Uint8Array; readonly wallet: PrivateKeyAccount }
  | { readonly kind: 'ed25519'; readonly privateKey: KeyObject; readonly publicKey: Uint8Array };

export interface NewAccount {
  readonly id: string;
  /** Where its tokens are on a settlement chain: the wallet, or the Ed25519 account's long-zero address. */
  readonly evmAddress: string;
  readonly role: Role;
  readonly signer: Signer;
  /** How the server checks this account's order signatures (for an in-process floor). */
  readonly key: SignerKey;
}

export interface Account extends NewAccount {
  readonly token: string;
}

/** Half secp256k1 0x wallets, half Ed25519 ledger accounts entered in the server's registry; each kind both sells and buys. */
export async function createAccounts(server: ServerProcess, count: number): Promise<NewAccount[]> {
  const kinds: KeyKind[] = Array.from({ length: count }, (_, index) => (index < count / 2 ? 'secp256k1' : 'ed25519'));
  const edKeys = kinds
    .filter((kind) => kind === 'ed25519')
    .map(() => {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const x = publicKey.export({ format: 'jwk' }).x;
      if (x === undefined) throw new Error('node:crypto exported an Ed25519 key without x');
      return { privateKey, publicKey: Uint8Array.from(Buffer.from(x, 'base64url')) };
    });
  const { accountIds, evmAddresses } = await ask(
    server,
    { type: 'register', publicKeys: edKeys.map((key) => Buffer.from(key.publicKey).toString('hex')) },
    'registered',
  );
  let edIndex = 0;
  return kinds.map((kind, index): NewAccount => {
    const role: Role = index % 2 === 0 ? 'seller' : 'buyer';
    if (kind === 'secp256k1') {
      const privateKey = generatePrivateKey();
      const wallet = privateKeyToAccount(privateKey);
      const id = wallet.address.toLowerCase();
      return {
        id,
        evmAddress: wallet.address,
        role,
        signer: { kind, privateKey: Uint8Array.from(Buffer.from(privateKey.slice(2), 'hex')), wallet },
        key: { type: 'secp256k1-address', address: id as Address },
      };
    }
    const edKey = edKeys[edIndex];
    const id = accountIds[edIndex];
    const evmAddress = evmAddresses[edIndex++];
    if (edKey === undefined || id === undefined || evmAddress === undefined)
      throw new Error('the server registered fewer accounts than asked');
    return { id, evmAddress, role, signer: { kind, ...edKey }, key: { type: 'ed25519', publicKey: edKey.publicKey } };
  });
}

async function signText(signer: Signer, message: string): Promise<Hex> {
  if (signer.kind === 'secp256k1') return signer.wallet.signMessage({ message });
  return `0x${sign(null, Buffer.from(message), signer.privateKey).toString('hex')}`;
}

export async function login(client: HttpClient, account: NewAccount): Promise<Account> {
  const { message } = await client.json<{ message: string }>('POST', '/auth/challenge', { accountId: account.id });
  const { token } = await client.json<{ token: string }>('POST', '/auth/verify', {
    accountId: account.id,
    signature: await signText(account.signer, message),
  });
  return { ...account, token };
}

/** The mode-byte signature of an order digest: libsecp256k1 (RFC 6979, low s) or Ed25519 over the 32 bytes. */
export function signDigest(signer: Signer, orderHash: string): Hex {
  const digest = Buffer.from(orderHash.slice(2), 'hex');
  if (signer.kind === 'ed25519') return `0x00${sign(null, digest, signer.privateKey).toString('hex')}`;
  const { signature, recid } = secp256k1.ecdsaSign(digest, signer.privateKey);
  return `0x00${Buffer.from(signature).toString('hex')}${(27 + recid).toString(16)}`;
}
