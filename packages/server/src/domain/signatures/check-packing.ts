import type { Address } from '@dex/core';
import type { SignatureCheck, SignerKey } from './order-signatures.js';

/**
 * Signature checks packed into one ArrayBuffer, so a batch crosses to a worker thread as a single
 * transfer instead of a structured clone of hundreds of small objects. Layout: u32 count, then per
 * check u8 signer type and u32 lengths of digest, signature and key, then those bytes.
 */
const SIGNER_TYPES = ['secp256k1-address', 'secp256k1-key', 'ed25519'] as const satisfies readonly SignerKey['type'][];
const COUNT_BYTES = 4;
const HEADER_BYTES = 13;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The signer's key bytes; an address that is not 20 bytes of hex packs as empty and can never match. */
function keyBytes(signer: SignerKey): Uint8Array {
  if (signer.type !== 'secp256k1-address') return signer.publicKey;
  return ADDRESS.test(signer.address) ? Buffer.from(signer.address.slice(2), 'hex') : new Uint8Array(0);
}

export function packChecks(checks: readonly SignatureCheck[]): ArrayBuffer {
  const keys = checks.map((check) => keyBytes(check.signer));
  let size = COUNT_BYTES;
  checks.forEach((check, index) => {
    size += HEADER_BYTES + check.digest.length + check.signature.length + (keys[index] as Uint8Array).length;
  });
  const buffer = new ArrayBuffer(size);
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  view.setUint32(0, checks.length);
  let offset = COUNT_BYTES;
  checks.forEach(({ digest, signature, signer }, index) => {
    const key = keys[index] as Uint8Array;
    const type = SIGNER_TYPES.indexOf(signer.type);
    if (type < 0) throw new RangeError(`unknown signer type ${String(signer.type)}`);
    view.setUint8(offset, type);
    view.setUint32(offset + 1, digest.length);
    view.setUint32(offset + 5, signature.length);
    view.setUint32(offset + 9, key.length);
    offset += HEADER_BYTES;
    for (const part of [digest, signature, key]) {
      bytes.set(part, offset);
      offset += part.length;
    }
  });
  return buffer;
}

/** The checks of a packed buffer; the byte fields are views into it, not copies. */
export function unpackChecks(buffer: ArrayBuffer): SignatureCheck[] {
  const view = new DataView(buffer);
  const count = view.getUint32(0);
  const checks: SignatureCheck[] = [];
  let offset = COUNT_BYTES;
  for (let index = 0; index < count; index++) {
    const type = SIGNER_TYPES[view.getUint8(offset)];
    const digestLength = view.getUint32(offset + 1);
    const signatureLength = view.getUint32(offset + 5);
    const keyLength = view.getUint32(offset + 9);
    offset += HEADER_BYTES;
    const digest = new Uint8Array(buffer, offset, digestLength);
    const signature = new Uint8Array(buffer, offset + digestLength, signatureLength);
    const key = new Uint8Array(buffer, offset + digestLength + signatureLength, keyLength);
    offset += digestLength + signatureLength + keyLength;
    checks.push({ digest, signature, signer: signerOf(type, key) });
  }
  return checks;
}

function signerOf(type: SignerKey['type'] | undefined, key: Uint8Array): SignerKey {
  switch (type) {
    case 'secp256k1-address':
      return { type, address: `0x${Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('hex')}` as Address };
    case 'secp256k1-key':
    case 'ed25519':
      return { type, publicKey: key };
    default:
      throw new RangeError('corrupt signature batch: unknown signer type');
  }
}
