import CECDSANonces
import COpenSSL
import Foundation
import Testing

/// The C code that prepares ES256 nonces in batches, called directly: each prepared nonce
/// is the one its scalar k makes (k⁻¹ and r = x(kG)), in a batch as alone, and signs as
/// RFC 6979's vectors say; a batch with a scalar out of range gives nothing.
@Suite struct NonceBatchTests {
    /// RFC 6979, A.2.5: P-256 with SHA-256, its key and two of its (message, k, r || s).
    private static let vectorKey = (
        d: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
        x: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
        y: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299")
    private static let vectors = [
        (message: "sample", k: "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
         signature: "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716"
            + "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
        (message: "test", k: "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
         signature: "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367"
            + "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
    ]
    /// The order n of P-256's group.
    private static let order = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551"

    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// The EC key of RFC 6979's vectors, read from its SEC 1 DER form (RFC 5915: version 1,
    /// d, the P-256 OID, the uncompressed point).
    private static func vectorECKey() throws -> OpaquePointer {
        let der = bytes(
            "30770201010420" + vectorKey.d + "a00a06082a8648ce3d030107a144034200" + "04" + vectorKey.x + vectorKey.y)
        let pkey = try #require(der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        })
        defer { EVP_PKEY_free(pkey) }
        return try #require(latchkey_ec_key(pkey))
    }

    /// The nonces of `scalars` prepared as one batch: (k⁻¹, r) each, or nil when the batch failed
    /// (then every number it returned is checked to be NULL).
    private static func prepare(_ scalars: [[UInt8]], with key: OpaquePointer) -> [(kinv: OpaquePointer, r: OpaquePointer)]? {
        var kinv = [OpaquePointer?](repeating: nil, count: scalars.count)
        var r = [OpaquePointer?](repeating: nil, count: scalars.count)
        let prepared = latchkey_ecdsa_prepare(key, scalars.count, scalars.flatMap { $0 }, &kinv, &r)
        guard prepared == 1 else {
            #expect(kinv.allSatisfy { $0 == nil } && r.allSatisfy { $0 == nil }, "a failed batch returns no number")
            return nil
        }
        return zip(kinv, r).map { ($0!, $1!) }
    }

    private static func free(_ nonces: [(kinv: OpaquePointer, r: OpaquePointer)]) {
        for nonce in nonces {
            BN_clear_free(nonce.kinv)
            BN_clear_free(nonce.r)
        }
    }

    private static func number(_ bytes: [UInt8]) -> OpaquePointer {
        BN_bin2bn(bytes, Int32(bytes.count), nil)!
    }

    @Test("nonces prepared from RFC 6979's k, alone and in one batch, sign as its P-256 vectors say")
    func preparedNoncesSignAsTheVectorsSay() throws {
        let key = try Self.vectorECKey()
        defer { latchkey_ec_key_free(key) }
        let batches = Self.vectors.map { [$0] } + [Array(repeating: Self.vectors, count: 3).flatMap { $0 }]
        for batch in batches {
            let nonces = try #require(Self.prepare(batch.map { Self.bytes($0.k) }, with: key))
            defer { Self.free(nonces) }
            for (vector, nonce) in zip(batch, nonces) {
                var digest = [UInt8](repeating: 0, count: 32)
                let message = Array(vector.message.utf8)
                latchkey_sha256(message, message.count, &digest)
                var signature = [UInt8](repeating: 0, count: 64)
                #expect(latchkey_ecdsa_sign(key, digest, nonce.kinv, nonce.r, &signature) == 1)
                #expect(Self.hex(signature) == vector.signature, "\(vector.message) in a batch of \(batch.count)")
            }
        }
    }

    @Test("in a batch of 32 random scalars each nonce is its own k's: k × k⁻¹ = 1 mod n and r = x(kG) mod n")
    func batchedNoncesAreEachTheirScalars() throws {
        let key = try Self.vectorECKey()
        defer { latchkey_ec_key_free(key) }
        // Below n: a random 31 bytes after a zero byte, never all zero.
        let scalars = (0..<32).map { index -> [UInt8] in
            var scalar = [UInt8](repeating: 0, count: 32)
            _ = scalar.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress! + 1, 31) }
            scalar[31] |= 1
            return scalar
        }
        let nonces = try #require(Self.prepare(scalars, with: key))
        defer { Self.free(nonces) }
        let context = try #require(BN_CTX_new())
        let group = try #require(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1))
        let point = try #require(EC_POINT_new(group))
        let order = Self.number(Self.bytes(Self.order))
        let product = BN_new(), x = BN_new(), xModN = BN_new()
        defer {
            for number in [order, product, x, xModN] { BN_free(number) }
            EC_POINT_free(point)
            EC_GROUP_free(group)
            BN_CTX_free(context)
        }
        for (scalar, nonce) in zip(scalars, nonces) {
            let k = Self.number(scalar)
            defer { BN_clear_free(k) }
            #expect(BN_mod_mul(product, k, nonce.kinv, order, context) == 1 && BN_is_one(product) == 1)
            #expect(EC_POINT_mul(group, point, k, nil, nil, context) == 1)
            #expect(EC_POINT_get_affine_coordinates(group, point, x, nil, context) == 1)
            #expect(BN_nnmod(xModN, x, order, context) == 1 && BN_cmp(xModN, nonce.r) == 0)
        }
    }

    @Test("a batch with a scalar of 0 or n fails whole and returns no number")
    func outOfRangeScalarFailsTheBatch() throws {
        let key = try Self.vectorECKey()
        defer { latchkey_ec_key_free(key) }
        let valid = Self.bytes(Self.vectors[0].k)
        for outOfRange in [[UInt8](repeating: 0, count: 32), Self.bytes(Self.order)] {
            #expect(Self.prepare([valid, outOfRange], with: key) == nil)
            #expect(Self.prepare([outOfRange, valid], with: key) == nil)
        }
        #expect(Self.prepare([], with: key) == nil, "an empty batch is refused")
    }
}
