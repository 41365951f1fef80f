// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// SHA-512 (FIPS 180-4) of a byte string in memory, for Ed25519 verification on the devnet (the EVM
/// has no SHA-512 precompile). Each 64-bit word lives in the low bits of a 256-bit word; sums are
/// masked back to 64 bits only where a word is stored or rotated, since carries only move upwards.
/// A rotation right by n is a shift of the word doubled into bits 64..127, read back through the
/// low 64 bits.
library Sha512 {
    uint256 private constant MASK64 = 0xffffffffffffffff;

    /// The 80 round constants K, 8 bytes each, big-endian.
    bytes private constant ROUND_CONSTANTS =
        hex"428a2f98d728ae227137449123ef65cdb5c0fbcfec4d3b2fe9b5dba58189dbbc"
        hex"3956c25bf348b53859f111f1b605d019923f82a4af194f9bab1c5ed5da6d8118"
        hex"d807aa98a303024212835b0145706fbe243185be4ee4b28c550c7dc3d5ffb4e2"
        hex"72be5d74f27b896f80deb1fe3b1696b19bdc06a725c71235c19bf174cf692694"
        hex"e49b69c19ef14ad2efbe4786384f25e30fc19dc68b8cd5b5240ca1cc77ac9c65"
        hex"2de92c6f592b02754a7484aa6ea6e4835cb0a9dcbd41fbd476f988da831153b5"
        hex"983e5152ee66dfaba831c66d2db43210b00327c898fb213fbf597fc7beef0ee4"
        hex"c6e00bf33da88fc2d5a79147930aa72506ca6351e003826f142929670a0e6e70"
        hex"27b70a8546d22ffc2e1b21385c26c9264d2c6dfc5ac42aed53380d139d95b3df"
        hex"650a73548baf63de766a0abb3c77b2a881c2c92e47edaee692722c851482353b"
        hex"a2bfe8a14cf10364a81a664bbc423001c24b8b70d0f89791c76c51a30654be30"
        hex"d192e819d6ef5218d69906245565a910f40e35855771202a106aa07032bbd1b8"
        hex"19a4c116b8d2d0c81e376c085141ab532748774cdf8eeb9934b0bcb5e19b48a8"
        hex"391c0cb3c5c95a634ed8aa4ae3418acb5b9cca4f7763e373682e6ff3d6b2b8a3"
        hex"748f82ee5defb2fc78a5636f43172f6084c87814a1f0ab728cc702081a6439ec"
        hex"90befffa23631e28a4506cebde82bde9bef9a3f7b2c67915c67178f2e372532b"
        hex"ca273eceea26619cd186b8c721c0c207eada7dd6cde0eb1ef57d4f7fee6ed178"
        hex"06f067aa72176fba0a637dc5a2c898a6113f9804bef90dae1b710b35131c471b"
        hex"28db77f523047d8432caab7b40c724933c9ebe0a15c9bebc431d67c49c100d4c"
        hex"4cc5d4becb3e42b6597f299cfc657e2a5fcb6fab3ad6faec6c44198c4a475817";

    /// The digest's bytes 0..31 and 32..63.
    function hash(bytes memory message) internal pure returns (bytes32 high, bytes32 low) {
        bytes memory padded = pad(message);
        bytes memory k = ROUND_CONSTANTS;
        // The state (8 words), then the block's message schedule with the round constants added
        // (80 words): one pointer reaches both, which keeps the round loop's variables on the stack.
        uint256[88] memory scratch;
        (scratch[0], scratch[1], scratch[2], scratch[3]) =
            (0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1);
        (scratch[4], scratch[5], scratch[6], scratch[7]) =
            (0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179);
        for (uint256 offset = 0; offset < padded.length; offset += 128) {
            schedule(padded, offset, scratch, k);
            compress(scratch);
        }
        high = bytes32((scratch[0] << 192) | (scratch[1] << 128) | (scratch[2] << 64) | scratch[3]);
        low = bytes32((scratch[4] << 192) | (scratch[5] << 128) | (scratch[6] << 64) | scratch[7]);
    }

    /// The message, the byte 0x80, zeros, and the message length in bits as a 128-bit big-endian
    /// number, in whole 128-byte blocks.
    function pad(bytes memory message) private pure returns (bytes memory padded) {
        uint256 length = message.length;
        // Rounds up to whole blocks: the division truncates before the multiply, as meant.
        // forge-lint: disable-next-line(divide-before-multiply)
        padded = new bytes(((length + 17 + 127) / 128) * 128);
        assembly ("memory-safe") {
            let body := add(padded, 32)
            // The length first: its 32-byte store also zeroes the 16 bytes before it, which the
            // message and the 0x80 byte may occupy and so are written afterwards.
            mstore(add(body, sub(mload(padded), 32)), shl(3, length))
            mcopy(body, add(message, 32), length)
            mstore8(add(body, length), 0x80)
        }
    }

    /// Expands the block at `offset` into the 80 words of its message schedule W, then adds the
    /// round constants: W[t] + K[t] is all a round needs (the round keeps its low 64 bits).
    function schedule(bytes memory padded, uint256 offset, uint256[88] memory scratch, bytes memory k) private pure {
        assembly ("memory-safe") {
            let w := add(scratch, 256)
            let words := add(add(padded, 32), offset)
            for { let t := 0 } lt(t, 16) { t := add(t, 1) } {
                mstore(add(w, shl(5, t)), shr(192, mload(add(words, shl(3, t)))))
            }
            for { let slot := add(w, 512) } lt(slot, add(w, 2560)) { slot := add(slot, 32) } {
                let w15 := mload(sub(slot, 480))
                let w2 := mload(sub(slot, 64))
                let twice15 := or(w15, shl(64, w15))
                let twice2 := or(w2, shl(64, w2))
                // sigma0 = rotr 1 ^ rotr 8 ^ shr 7; sigma1 = rotr 19 ^ rotr 61 ^ shr 6
                let sigma0 := xor(xor(shr(1, twice15), shr(8, twice15)), shr(7, w15))
                let sigma1 := xor(xor(shr(19, twice2), shr(61, twice2)), shr(6, w2))
                mstore(slot, and(add(add(sigma0, sigma1), add(mload(sub(slot, 224)), mload(sub(slot, 512)))), MASK64))
            }
            let constants := add(k, 32)
            for { let t := 0 } lt(t, 80) { t := add(t, 1) } {
                let slot := add(w, shl(5, t))
                mstore(slot, add(mload(slot), shr(192, mload(add(constants, shl(3, t))))))
            }
        }
    }

    /// The 80 rounds over one block's schedule, added into the state. The working variables are
    /// packed four to a word, a b c d and e f g h from the top: a round reads them through shifts
    /// and shifts the new a and e in at the top, so the loop keeps four values on the stack.
    function compress(uint256[88] memory scratch) private pure {
        assembly ("memory-safe") {
            let abcd := or(or(shl(192, mload(scratch)), shl(128, mload(add(scratch, 32)))),
                or(shl(64, mload(add(scratch, 64))), mload(add(scratch, 96))))
            let efgh := or(or(shl(192, mload(add(scratch, 128))), shl(128, mload(add(scratch, 160)))),
                or(shl(64, mload(add(scratch, 192))), mload(add(scratch, 224))))
            for { let wk := add(scratch, 256) } lt(wk, add(scratch, 2816)) { wk := add(wk, 32) } {
                // Only the low 64 bits of t1 and t2 matter, so h and d are read unmasked from the
                // bottom lane, and the top lane drops the carries when the new values shift in.
                let e := shr(192, efgh)
                let twiceE := or(e, shl(64, e))
                // h + Sigma1(e) + Ch(e, f, g) + W[t] + K[t]; Sigma1 = rotr 14 ^ rotr 18 ^ rotr 41,
                // Ch = (e & f) ^ (~e & g) computed in the top lane
                let t1 := add(
                    add(efgh, xor(xor(shr(14, twiceE), shr(18, twiceE)), shr(41, twiceE))),
                    add(shr(192, xor(and(efgh, shl(64, efgh)), and(not(efgh), shl(128, efgh)))), mload(wk))
                )
                let a := shr(192, abcd)
                let twiceA := or(a, shl(64, a))
                let b := shl(64, abcd)
                let c := shl(128, abcd)
                // Sigma0(a) + Maj(a, b, c); Sigma0 = rotr 28 ^ rotr 34 ^ rotr 39,
                // Maj = (a & (b | c)) | (b & c) computed in the top lane
                let t2 := add(
                    xor(xor(shr(28, twiceA), shr(34, twiceA)), shr(39, twiceA)),
                    shr(192, or(and(abcd, or(b, c)), and(b, c)))
                )
                efgh := or(shl(192, add(abcd, t1)), shr(64, efgh)) // e = d + t1
                abcd := or(shl(192, add(t1, t2)), shr(64, abcd)) // a = t1 + t2
            }
            mstore(scratch, and(add(mload(scratch), shr(192, abcd)), MASK64))
            mstore(add(scratch, 32), and(add(mload(add(scratch, 32)), shr(128, abcd)), MASK64))
            mstore(add(scratch, 64), and(add(mload(add(scratch, 64)), shr(64, abcd)), MASK64))
            mstore(add(scratch, 96), and(add(mload(add(scratch, 96)), abcd), MASK64))
            mstore(add(scratch, 128), and(add(mload(add(scratch, 128)), shr(192, efgh)), MASK64))
            mstore(add(scratch, 160), and(add(mload(add(scratch, 160)), shr(128, efgh)), MASK64))
            mstore(add(scratch, 192), and(add(mload(add(scratch, 192)), shr(64, efgh)), MASK64))
            mstore(add(scratch, 224), and(add(mload(add(scratch, 224)), efgh), MASK64))
        }
    }
}
