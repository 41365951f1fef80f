// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {Sha512} from "./Sha512.sol";

/// Ed25519 signature verification (RFC 8032 5.1.7) with the same strict policy as the server's
/// verifyEd25519Strict, so that the chain and the server agree on every signature: a 64-byte
/// signature, S < L, a canonical public key (y < p, no x = 0 with the sign bit set) that is not
/// of small order, and the cofactorless equation [S]B = R + [k]A checked as OpenSSL does, by
/// encoding [S]B - [k]A and comparing it with R byte for byte. That encoding is always canonical,
/// so a non-canonical R (y >= p, or x = 0 with the sign bit set) never matches.
///
/// Points are in extended twisted-Edwards coordinates (X : Y : Z : T), x = X/Z, y = Y/Z,
/// xy = T/Z, over p = 2^255 - 19 with a = -1 (Hisil, Wong, Carter, Dawson 2008); the double
/// scalar multiplication interleaves 4-bit windows of both scalars (Straus-Shamir). Verification
/// handles public data only, so nothing needs to run in constant time.
library Ed25519 {
    uint256 private constant P = 0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed;
    /// The order of the base point.
    uint256 private constant L = 0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed;
    /// d = -121665/121666 and 2d.
    uint256 private constant D = 0x52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3;
    uint256 private constant D2 = 0x2406d9dc56dffce7198e80f2eef3d13000e0149a8283b156ebd69b9426b2f159;
    /// A square root of -1 mod p (2^((p-1)/4)).
    uint256 private constant SQRT_M1 = 0x2b8324804fc1df0b2b4d00993dfbd7a72f431806ad2fe478c4ee1b274a0ea0b0;
    /// The base point B.
    uint256 private constant BX = 0x216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a;
    uint256 private constant BY = 0x6666666666666666666666666666666666666666666666666666666666666658;
    /// 2^256 mod L, to reduce the 512-bit hash.
    uint256 private constant TWO_256_MOD_L = 0x0ffffffffffffffffffffffffffffffec6ef5bf4737dcf70d6ec31748d98951d;
    uint256 private constant Y_MASK = (1 << 255) - 1;
    /// The y of the two pairs of points of order 8 (the other torsion points have y = 1, p - 1, 0).
    uint256 private constant Y_ORDER_8 = 0x7a03ac9277fdc74ec6cc392cfa53202a0f67100d760b3cba4fd84d3d706a17c7;
    uint256 private constant Y_ORDER_8_NEG = 0x05fc536d880238b13933c6d305acdfd5f098eff289f4c345b027b2c28f95e826;

    /// Whether `signature` (R || S) is `publicKey`'s signature of `message`. Never reverts on any
    /// input; false for anything the policy refuses.
    function verify(bytes32 publicKey, bytes memory message, bytes memory signature) internal view returns (bool) {
        if (signature.length != 64) return false;
        bytes32 r;
        uint256 sWord;
        assembly ("memory-safe") {
            r := mload(add(signature, 32))
            sWord := mload(add(signature, 64))
        }
        uint256 s = littleEndian(sWord);
        if (s >= L) return false;
        (bool decoded, uint256 ax, uint256 ay) = decodePublicKey(publicKey);
        if (!decoded) return false;
        (bytes32 high, bytes32 low) = Sha512.hash(abi.encodePacked(r, publicKey, message));
        // k = SHA-512(R || A || M) read little-endian, mod L.
        uint256 k = addmod(mulmod(littleEndian(uint256(low)), TWO_256_MOD_L, L), littleEndian(uint256(high)), L);
        // -A = (-x, y)
        (uint256 x, uint256 y) = doubleScalarMultiply(s, k, P - ax, ay);
        return bytes32(littleEndian(y | ((x & 1) << 255))) == r;
    }

    /// Decodes a canonical public key (RFC 8032 5.1.3) that is not one of the 8 torsion points.
    function decodePublicKey(bytes32 encoded) private view returns (bool ok, uint256 x, uint256 y) {
        uint256 word = littleEndian(uint256(encoded));
        y = word & Y_MASK;
        bool negative = word >> 255 == 1;
        if (y >= P || y == 0 || y == 1 || y == P - 1 || y == Y_ORDER_8 || y == Y_ORDER_8_NEG) return (false, 0, 0);
        // x^2 = u/v with u = y^2 - 1, v = d y^2 + 1; candidate x = u v^3 (u v^7)^((p-5)/8).
        uint256 yy = mulmod(y, y, P);
        uint256 u = addmod(yy, P - 1, P);
        uint256 v = addmod(mulmod(D, yy, P), 1, P);
        uint256 uv3 = mulmod(u, mulmod(mulmod(v, v, P), v, P), P);
        uint256 uv7 = mulmod(uv3, mulmod(mulmod(v, v, P), mulmod(v, v, P), P), P);
        x = mulmod(uv3, modExp(uv7, (P - 5) / 8), P);
        uint256 vxx = mulmod(v, mulmod(x, x, P), P);
        if (vxx != u) {
            if (vxx != P - u) return (false, 0, 0); // u/v is not a square: not a curve point
            x = mulmod(x, SQRT_M1, P);
        }
        // x = 0 only for y = 1 or p - 1, refused above, so the sign bit always selects a root.
        if ((x & 1 == 1) != negative) x = P - x;
        return (true, x, y);
    }

    /// [s]B + [k]Q in affine coordinates.
    function doubleScalarMultiply(uint256 s, uint256 k, uint256 qx, uint256 qy)
        private
        view
        returns (uint256 x, uint256 y)
    {
        uint256 z;
        assembly ("memory-safe") {
            /// Stores (Y - X, Y + X, 2dT, 2Z), the cached form `addCached` takes, at `entry`.
            function cache(entry, px, py, pz, pt) {
                mstore(entry, addmod(py, sub(P, px), P))
                mstore(add(entry, 32), addmod(py, px, P))
                mstore(add(entry, 64), mulmod(pt, D2, P))
                mstore(add(entry, 96), addmod(pz, pz, P))
            }

            /// (X : Y : Z : T) + the cached point at `entry`: "add-2008-hwcd-3" with a = -1.
            function addCached(px, py, pz, pt, entry) -> rx, ry, rz, rt {
                let a := mulmod(addmod(py, sub(P, px), P), mload(entry), P)
                let b := mulmod(addmod(py, px, P), mload(add(entry, 32)), P)
                let c := mulmod(pt, mload(add(entry, 64)), P)
                let d := mulmod(pz, mload(add(entry, 96)), P)
                let e := addmod(b, sub(P, a), P)
                let h := addmod(b, a, P)
                let f := addmod(d, sub(P, c), P)
                let g := addmod(d, c, P)
                rx := mulmod(e, f, P)
                ry := mulmod(g, h, P)
                rz := mulmod(f, g, P)
                rt := mulmod(e, h, P)
            }

            /// 2(X : Y : Z): "dbl-2008-hwcd" with a = -1 (T is not an input).
            function dbl(px, py, pz) -> rx, ry, rz, rt {
                let a := mulmod(px, px, P)
                let b := mulmod(py, py, P)
                let xy := addmod(px, py, P)
                let h := sub(P, addmod(a, b, P)) // -A - B
                let e := addmod(mulmod(xy, xy, P), h, P) // 2XY
                let g := addmod(b, sub(P, a), P) // B - A
                let zz := mulmod(pz, pz, P)
                let f := addmod(g, sub(P, addmod(zz, zz, P)), P) // G - 2Z^2
                rx := mulmod(e, f, P)
                ry := mulmod(g, h, P)
                rz := mulmod(f, g, P)
                rt := mulmod(e, h, P)
            }

            /// Fills the 16 entries at `entries` (128 bytes each) with [0]Q .. [15]Q of an affine
            /// point Q; [0]Q is never read.
            function multiples(entries, px, py) {
                let pz := 1
                let pt := mulmod(px, py, P)
                let first := add(entries, 128)
                cache(first, px, py, pz, pt)
                for { let entry := add(entries, 256) } lt(entry, add(entries, 2048)) { entry := add(entry, 128) } {
                    px, py, pz, pt := addCached(px, py, pz, pt, first)
                    cache(entry, px, py, pz, pt)
                }
            }

            // Memory: the multiples of B, then of Q (2048 bytes each), then the two scalars.
            let tables := mload(0x40)
            mstore(0x40, add(tables, 4160))
            multiples(tables, BX, BY)
            multiples(add(tables, 2048), qx, qy)
            mstore(add(tables, 4096), s)
            mstore(add(tables, 4128), k)

            // Both scalars are below L < 2^253: 64 windows of 4 bits, most significant first.
            let px := 0
            let py := 1
            let pz := 1
            let pt := 0
            for { let shift := 256 } shift {} {
                shift := sub(shift, 4)
                px, py, pz, pt := dbl(px, py, pz)
                px, py, pz, pt := dbl(px, py, pz)
                px, py, pz, pt := dbl(px, py, pz)
                px, py, pz, pt := dbl(px, py, pz)
                let digit := and(shr(shift, mload(add(tables, 4096))), 15)
                if digit { px, py, pz, pt := addCached(px, py, pz, pt, add(tables, shl(7, digit))) }
                digit := and(shr(shift, mload(add(tables, 4128))), 15)
                if digit { px, py, pz, pt := addCached(px, py, pz, pt, add(add(tables, 2048), shl(7, digit))) }
            }
            x := px
            y := py
            z := pz
        }
        uint256 zInverse = modExp(z, P - 2);
        return (mulmod(x, zInverse, P), mulmod(y, zInverse, P));
    }

    /// base^exponent mod p through the modexp precompile (EIP-198).
    function modExp(uint256 base, uint256 exponent) private view returns (uint256 result) {
        assembly ("memory-safe") {
            let input := mload(0x40)
            mstore(input, 32)
            mstore(add(input, 32), 32)
            mstore(add(input, 64), 32)
            mstore(add(input, 96), base)
            mstore(add(input, 128), exponent)
            mstore(add(input, 160), P)
            if iszero(staticcall(gas(), 0x05, input, 192, input, 32)) { revert(0, 0) }
            result := mload(input)
        }
    }

    /// The 32 bytes of a word in reverse order: RFC 8032 encodes numbers little-endian.
    function littleEndian(uint256 v) private pure returns (uint256) {
        v = ((v >> 8) & 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff)
            | ((v & 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff) << 8);
        v = ((v >> 16) & 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff)
            | ((v & 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff) << 16);
        v = ((v >> 32) & 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff)
            | ((v & 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff) << 32);
        v = ((v >> 64) & 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff)
            | ((v & 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff) << 64);
        return (v >> 128) | (v << 128);
    }
}
