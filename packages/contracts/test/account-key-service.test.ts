import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ED25519_TORSION_SUBGROUP, ed25519 } from '@noble/curves/ed25519.js';
import fc from 'fast-check';
import { type Address, bytesToHex, getAddress, type Hex, hexToBytes, keccak256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../../../bench/workload.js';
import { verifyEd25519Strict } from '../../server/src/domain/signatures/ed25519.js';
import { ACCOUNT_KEY_SERVICE_ADDRESS, installAccountKeyService, registerEd25519Key } from '../src/devnet-chain.js';
import { DevnetAccountKeyService, Ed25519Harness } from '../src/generated/artifacts.js';
import { mapInBatches } from './support/batches.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';

const { Point } = ed25519;
const L = Point.Fn.ORDER;

let devnet: TestDevnet;
let registrar: Wallet;

beforeAll(async () => {
  devnet = await startTestDevnet();
  registrar = await devnet.newWallet();
  await installAccountKeyService(devnet, registrar);
});
afterAll(() => devnet?.stop());

const service = { address: ACCOUNT_KEY_SERVICE_ADDRESS, abi: DevnetAccountKeyService.abi } as const;
/** A numbered ledger account that has no key yet: a long-zero address (twelve zero bytes, then the number). */
const newAccount = (): Address => bytesToHex(Uint8Array.from([...new Uint8Array(12), ...randomBytes(8)]));

/** The reactor's question, answered by eth_call. */
const isAuthorized = (account: Address, message: Uint8Array, signature: Uint8Array): Promise<boolean> =>
  devnet.public.readContract({
    ...service,
    functionName: 'isAuthorizedRaw',
    args: [account, bytesToHex(message), bytesToHex(signature)],
  });

/** A fresh account with `publicKey` registered at 0x16a. */
async function accountWithKey(publicKey: Uint8Array): Promise<Address> {
  const account = newAccount();
  await registerEd25519Key(devnet, registrar, account, bytesToHex(publicKey));
  return account;
}

/** What both verifiers say: 0x16a for a registered key, and the server's verifyEd25519Strict. */
async function verdicts(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) {
  const account = await accountWithKey(publicKey);
  return {
    chain: await isAuthorized(account, message, signature),
    server: verifyEd25519Strict(publicKey, message, signature),
  };
}

const REFUSED = { chain: false, server: false };
const ACCEPTED = { chain: true, server: true };

function signedDigest() {
  const secretKey = ed25519.utils.randomSecretKey();
  const publicKey = ed25519.getPublicKey(secretKey);
  const message = randomBytes(32);
  return { secretKey, publicKey, message, signature: ed25519.sign(message, secretKey) };
}

/** k = SHA-512(R || A || M) mod L, as RFC 8032 reads it (little-endian). */
function challenge(encodedR: Uint8Array, publicKey: Uint8Array, message: Uint8Array): bigint {
  const digest = createHash('sha512').update(encodedR).update(publicKey).update(message).digest();
  return BigInt(`0x${Buffer.from(digest).reverse().toString('hex')}`) % L;
}

const littleEndian32 = (value: bigint): Uint8Array =>
  Uint8Array.from(Buffer.from(value.toString(16).padStart(64, '0'), 'hex').reverse());
const signatureOf = (encodedR: Uint8Array, s: bigint): Uint8Array => Uint8Array.from([...encodedR, ...littleEndian32(s)]);

/** The cofactorless equation [S]B = R + [k]A that a verifier without the strict checks would accept. */
function satisfiesEquation(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const encodedR = signature.subarray(0, 32);
  const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`);
  const k = challenge(encodedR, publicKey, message);
  const a = Point.fromBytes(publicKey, true);
  const r = Point.fromBytes(encodedR, true);
  return Point.BASE.multiplyUnsafe(s % L).equals(r.add(a.multiplyUnsafe(k)));
}

describe('DevnetAccountKeyService at 0x16a', () => {
  it('authorises an Ed25519 signature of a digest by the account’s registered key', async () => {
    const { publicKey, message, signature } = signedDigest();
    const account = await accountWithKey(publicKey);
    expect(await isAuthorized(account, message, signature)).toBe(true);
    expect(await isAuthorized(account, randomBytes(32), signature)).toBe(false);
    expect(await isAuthorized(newAccount(), message, signature)).toBe(false);
  });

  it('lets only the registrar set a key, records each change in an event, and clears a key with zero', async () => {
    const { publicKey, message, signature } = signedDigest();
    const account = newAccount();
    const stranger = await devnet.newWallet();
    await expect(
      devnet.public.simulateContract({
        ...service,
        account: stranger.account,
        functionName: 'setEd25519Key',
        args: [account, bytesToHex(publicKey)],
      }),
    ).rejects.toThrow(/NotRegistrar/);

    await registerEd25519Key(devnet, registrar, account, bytesToHex(publicKey));
    expect(await devnet.public.readContract({ ...service, functionName: 'ed25519KeyOf', args: [account] })).toBe(
      bytesToHex(publicKey),
    );
    expect(await isAuthorized(account, message, signature)).toBe(true);

    const zero = bytesToHex(new Uint8Array(32));
    await registerEd25519Key(devnet, registrar, account, zero);
    expect(await isAuthorized(account, message, signature)).toBe(false);

    const events = await devnet.public.getContractEvents({
      ...service,
      eventName: 'Ed25519KeySet',
      args: { account },
      fromBlock: 0n,
    });
    expect(events.map(({ args }) => args)).toEqual([
      { account: getAddress(account), publicKey: bytesToHex(publicKey) },
      { account: getAddress(account), publicKey: zero },
    ]);
  });

  it("attaches Ed25519 keys only to the ledger's numbered accounts, never to an address an EVM key controls", async () => {
    const { publicKey } = signedDigest();
    const wallet = await devnet.newWallet();
    for (const account of [wallet.account.address, ACCOUNT_KEY_SERVICE_ADDRESS]) {
      await expect(
        devnet.public.simulateContract({
          ...service,
          account: registrar.account,
          functionName: 'setEd25519Key',
          args: [account, bytesToHex(publicKey)],
        }),
      ).rejects.toThrow(/NotLedgerNumbered/);
    }
  });

  it("checks a secp256k1 signature against the account's current key, which only the current key moves", async () => {
    const owner = await devnet.newWallet();
    const next = await devnet.newWallet();
    const digest = keccak256(randomBytes(32));
    const signatureBy = async (wallet: typeof owner) => hexToBytes(await (wallet.account.sign?.({ hash: digest }) ?? '0x'));
    const authorised = async (wallet: typeof owner) =>
      isAuthorized(owner.account.address, hexToBytes(digest), await signatureBy(wallet));
    expect([await authorised(owner), await authorised(next)]).toEqual([true, false]);
    // Nobody else moves the key: not the registrar, not the next key.
    for (const stranger of [registrar, next]) {
      await expect(
        devnet.public.simulateContract({
          ...service,
          account: stranger.account,
          functionName: 'rotateEcdsaKey',
          args: [owner.account.address, stranger.account.address],
        }),
      ).rejects.toThrow(/NotCurrentKey/);
    }
    const hash = await owner.writeContract({
      ...service,
      functionName: 'rotateEcdsaKey',
      args: [owner.account.address, next.account.address],
    });
    await devnet.public.waitForTransactionReceipt({ hash });
    expect([await authorised(owner), await authorised(next)]).toEqual([false, true]);
  });

  it('can be initialised only once, and installing again keeps the registrar', async () => {
    const stranger = await devnet.newWallet();
    for (const caller of [stranger, registrar]) {
      await expect(
        devnet.public.simulateContract({
          ...service,
          account: caller.account,
          functionName: 'initialize',
          args: [caller.account.address],
        }),
      ).rejects.toThrow(/AlreadyInitialized/);
    }
    await installAccountKeyService(devnet, stranger);
    expect(await devnet.public.readContract({ ...service, functionName: 'registrar' })).toBe(registrar.account.address);
  });
});

describe('Ed25519 policy of 0x16a, the same as the server’s', () => {
  it('refuses S + L, although it satisfies the equation', async () => {
    const { publicKey, message, signature } = signedDigest();
    const s = BigInt(`0x${Buffer.from(signature.subarray(32)).reverse().toString('hex')}`);
    const malleated = signatureOf(signature.subarray(0, 32), s + L);
    expect(satisfiesEquation(publicKey, message, malleated)).toBe(true);
    expect(await verdicts(publicKey, message, signature)).toEqual(ACCEPTED);
    expect(await verdicts(publicKey, message, malleated)).toEqual(REFUSED);
  });

  it('refuses non-canonical encodings of R although their point satisfies the equation', async () => {
    // A signer whose nonce is 0 has R = the identity: S = k a, for whatever encoding of R went into k.
    const secretKey = ed25519.utils.randomSecretKey();
    const { scalar, pointBytes: publicKey } = ed25519.utils.getExtendedPublicKey(secretKey);
    const message = randomBytes(32);
    const sign = (encodedR: Uint8Array) => signatureOf(encodedR, (challenge(encodedR, publicKey, message) * scalar) % L);
    const identity = hexToBytes(`0x01${'00'.repeat(31)}`);
    expect(await verdicts(publicKey, message, sign(identity))).toEqual(ACCEPTED);
    for (const encodedR of [
      `0x01${'00'.repeat(30)}80`, // x = 0 with the sign bit set
      `0xee${'ff'.repeat(30)}7f`, // y = p + 1
      `0xee${'ff'.repeat(31)}`, // y = p + 1 and the sign bit
    ] as const) {
      const signature = sign(hexToBytes(encodedR));
      expect(satisfiesEquation(publicKey, message, signature)).toBe(true);
      expect(await verdicts(publicKey, message, signature)).toEqual(REFUSED);
    }
  });

  it('refuses every small-order public key, also with a signature that satisfies the equation', async () => {
    const nonCanonical = [`0x01${'00'.repeat(30)}80`, `0xee${'ff'.repeat(30)}7f`, `0xed${'ff'.repeat(30)}7f`];
    const keys = [...ED25519_TORSION_SUBGROUP.map((hex) => `0x${hex}`), ...nonCanonical] as Hex[];
    const torsion = ED25519_TORSION_SUBGROUP.map((hex) => Point.fromHex(hex));
    for (const key of keys) {
      const publicKey = hexToBytes(key);
      const a = Point.fromBytes(publicKey, true);
      // With S = 0 the equation says R = -[k]A, a torsion point; search the message that makes it so.
      let forged: { message: Uint8Array; signature: Uint8Array } | undefined;
      for (let counter = 0; forged === undefined; counter++) {
        const message = Uint8Array.of(counter);
        const r = torsion.find((point) =>
          point.equals(a.multiplyUnsafe(challenge(point.toBytes(), publicKey, message)).negate()),
        );
        if (r) forged = { message, signature: signatureOf(r.toBytes(), 0n) };
      }
      expect(satisfiesEquation(publicKey, forged.message, forged.signature), key).toBe(true);
      expect(await verdicts(publicKey, forged.message, forged.signature), key).toEqual(REFUSED);
    }
  });

  it('refuses signatures of any length but 64 bytes', async () => {
    const { publicKey, message, signature } = signedDigest();
    const account = await accountWithKey(publicKey);
    for (const wrong of [new Uint8Array(0), signature.subarray(0, 63), Uint8Array.from([...signature, 0]), new Uint8Array(128)]) {
      expect(await isAuthorized(account, message, wrong)).toBe(false);
    }
  });

  it('answers false, without reverting, for a key that is not a curve point', async () => {
    const { message, signature } = signedDigest();
    // y = 2 gives x^2 = 3 / (4d + 1), not a square mod p.
    const publicKey = hexToBytes(`0x02${'00'.repeat(31)}`);
    expect(() => Point.fromBytes(publicKey)).toThrow();
    expect(await verdicts(publicKey, message, signature)).toEqual(REFUSED);
  });

  it('agrees with the server’s verifyEd25519Strict on random keys and messages, intact or with one bit flipped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 300 }),
        fc.option(fc.record({ part: fc.constantFrom('key', 'message', 'signature'), bit: fc.nat() }), { nil: undefined }),
        async (secretKey, message, flip) => {
          const publicKey = ed25519.getPublicKey(secretKey);
          const signature = ed25519.sign(message, secretKey);
          const parts = { key: publicKey, message: message.slice(), signature };
          if (flip !== undefined && parts[flip.part].length > 0) {
            const bytes = parts[flip.part];
            const bit = flip.bit % (bytes.length * 8);
            bytes[bit >> 3] = (bytes[bit >> 3] as number) ^ (1 << (bit & 7));
          }
          const { chain, server } = await verdicts(parts.key, parts.message, parts.signature);
          expect(chain).toBe(server);
          if (flip === undefined) expect(server).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('verifies a signature of a 32-byte digest in under 300k gas', async () => {
    const harness = await devnet.deploy(registrar, Ed25519Harness, []);
    const { publicKey, message, signature } = signedDigest();
    const [valid, gasUsed] = await devnet.public.readContract({
      address: harness,
      abi: Ed25519Harness.abi,
      functionName: 'verify',
      args: [bytesToHex(publicKey), bytesToHex(message), bytesToHex(signature)],
    });
    console.info(`Ed25519 verification of a 32-byte digest: ${gasUsed} gas`);
    expect(valid).toBe(true);
    expect(gasUsed).toBeLessThan(300_000n);
  });
});

interface EddsaGroup {
  publicKey: { pk: string };
  tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable' }[];
}

const shared = sharedDir();
if (!shared) console.warn('[skip] ../shared is absent: 0x16a is not checked with the Wycheproof vectors (set SHARED_DIR)');

describe.skipIf(!shared)('Wycheproof Ed25519 vectors through 0x16a', () => {
  it('accepts every valid and refuses every invalid vector', async () => {
    const file = join(shared as string, 'vectors/wycheproof/ed25519_test.json');
    const vectors = JSON.parse(readFileSync(file, 'utf8')) as { numberOfTests: number; testGroups: EddsaGroup[] };
    const cases = [];
    for (const group of vectors.testGroups) {
      const account = await accountWithKey(hexToBytes(`0x${group.publicKey.pk}`));
      for (const test of group.tests) cases.push({ account, ...test });
    }
    expect(cases).toHaveLength(vectors.numberOfTests);
    const mismatches = (
      await mapInBatches(cases, 16, async (test) => {
        const accepted = await isAuthorized(test.account, hexToBytes(`0x${test.msg}`), hexToBytes(`0x${test.sig}`));
        return accepted === (test.result === 'valid') ? [] : [`tcId ${test.tcId} (${test.result})`];
      })
    ).flat();
    expect(mismatches).toEqual([]);
  });
});
