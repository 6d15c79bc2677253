import CECDSANonces
import COpenSSL
import Synchronization
import Foundation

/// The one place that calls OpenSSL's libcrypto. Digests and random bytes are one-shot
/// (SHA-256 on a state on the stack, shim.h). Three things are kept: SHA-256 is fetched from
/// the provider once, for the life of the process (``sha256Digest``, for signatures), each
/// HMAC key holds the digest states prepared from it when it was created, in a
/// ``MACKeyHandle``, and each asymmetric key holds the EVP_PKEY built when it was created, in
/// a ``KeyHandle``. Their pointers are private to this file, so no C type or pointer leaves it.
///
/// SHA-256 and HMAC-SHA256 run on states in memory of their own and cannot fail. The other
/// functions can only fail if libcrypto itself is unusable (no default provider, out of
/// memory); the process cannot do anything safe without them, so they trap.
enum LibCrypto {
    /// The size of a SHA-256 digest in bytes.
    static let sha256Length = 32

    /// SHA-256, fetched once from the default provider and never freed; used wherever a
    /// SHA-256 EVP_MD is passed (signatures and their verification). With the legacy
    /// `EVP_sha256()`, OpenSSL 3 fetches the provider's implementation again on every call.
    /// (Signature calls use only the digest's name: the provider fetches by name itself,
    /// whichever EVP_MD is passed.)
    /// A fetched EVP_MD is immutable (only its reference count changes, atomically), so every
    /// thread may use this one at once.
    private nonisolated(unsafe) static let sha256Digest: OpaquePointer = {
        guard let digest = EVP_MD_fetch(nil, "SHA256", nil) else {
            preconditionFailure("libcrypto has no SHA-256 implementation")
        }
        return digest
    }()

    static func sha256(_ message: Data) -> Data {
        message.withUnsafeBytes(sha256(bytes:))
    }

    /// SHA-256 of `text`'s UTF-8 bytes, read in place.
    static func sha256(utf8 text: String) -> Data {
        var text = text
        return text.withUTF8 { sha256(bytes: UnsafeRawBufferPointer($0)) }
    }

    private static func sha256(bytes message: UnsafeRawBufferPointer) -> Data {
        var digest = Data(count: sha256Length)
        digest.withUnsafeMutableBytes { output in
            latchkey_sha256(message.bindMemory(to: UInt8.self).baseAddress, message.count, output.bindMemory(to: UInt8.self).baseAddress)
        }
        return digest
    }

    /// An HMAC-SHA256 key prepared once: the SHA-256 states after its inner and outer padded
    /// blocks (shim.h), in memory of its own that only this handle writes, when it is made
    /// and when it is freed (cleared first). Each code starts from copies of the states and
    /// only reads them, so one handle serves many threads at once. A code allocates nothing,
    /// where copying an `EVP_MAC_CTX` for each took several allocations and several times as
    /// long (measured: docs/performance.md, "HMAC-SHA256 on prepared states").
    final class MACKeyHandle: @unchecked Sendable {
        fileprivate let prepared: UnsafeMutablePointer<latchkey_hmac_sha256_key>

        fileprivate init(_ key: UnsafeRawBufferPointer) {
            prepared = .allocate(capacity: 1)
            latchkey_hmac_sha256_prepare(prepared, key.bindMemory(to: UInt8.self).baseAddress, key.count)
        }

        deinit {
            OPENSSL_cleanse(prepared, MemoryLayout<latchkey_hmac_sha256_key>.size)
            prepared.deallocate()
        }
    }

    static func hmacSHA256Key(_ key: Data) -> MACKeyHandle {
        key.withUnsafeBytes(MACKeyHandle.init)
    }

    static func hmacSHA256(_ key: MACKeyHandle, message: Data) -> Data {
        message.withUnsafeBytes { hmacSHA256(key, bytes: $0) }
    }

    /// HMAC-SHA256 of `text`'s UTF-8 bytes, read in place.
    static func hmacSHA256(_ key: MACKeyHandle, utf8 text: String) -> Data {
        var text = text
        return text.withUTF8 { hmacSHA256(key, bytes: UnsafeRawBufferPointer($0)) }
    }

    private static func hmacSHA256(_ key: MACKeyHandle, bytes message: UnsafeRawBufferPointer) -> Data {
        var code = Data(count: sha256Length)
        code.withUnsafeMutableBytes { output in
            latchkey_hmac_sha256(
                key.prepared, message.bindMemory(to: UInt8.self).baseAddress, message.count,
                output.bindMemory(to: UInt8.self).baseAddress)
        }
        return code
    }

    /// `count` bytes from the kernel's CSPRNG (`getentropy`, which is `getrandom(2)` on Linux),
    /// drawn for each call, at most 256 bytes a system call. Not from OpenSSL's DRBG: every
    /// draw there takes process-wide locks (the RAND method's and the primary DRBG's), glibc
    /// rwlocks whose waiters spin through a hand-over, so a draw on a thread of low priority,
    /// preempted there, left request threads spinning behind it — for seconds under load
    /// (the idle-class threads that prepare ES256 nonces draw too). Here no thread shares
    /// anything with another, and a forked child cannot repeat its parent's bytes (cost:
    /// docs/performance.md, "No request thread waits for an idle-class thread").
    static func randomBytes(_ count: Int) -> Data {
        precondition(count >= 0, "random byte count out of range")
        var bytes = Data(count: count)
        bytes.withUnsafeMutableBytes(fillRandom)
        return bytes
    }

    /// Fills `buffer` from the kernel's CSPRNG, as ``randomBytes(_:)`` draws.
    static func fillRandom(_ buffer: UnsafeMutableRawBufferPointer) {
        var offset = 0
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset)
            precondition(
                getentropy(buffer.baseAddress! + offset, chunk) == 0,
                "the operating system's random number generator failed")
            offset += chunk
        }
    }

    static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

// MARK: - HMAC-SHA1 and AES-256-GCM
//
// HMAC-SHA1 for one-time codes (RFC 4226, RFC 6238), whose authenticator apps know SHA-1
// only; AES-256-GCM for secrets kept at rest that must be read back (``SecretBox``). Both
// one-shot: the bytes cross in and out as Data, the contexts never leave these functions.

extension LibCrypto {
    /// The size of an HMAC-SHA1 code in bytes.
    static let sha1Length = 20

    /// HMAC-SHA1 of `message` under `key` (RFC 2104 with SHA-1), one-shot.
    static func hmacSHA1(key: Data, message: Data) -> Data {
        var code = Data(count: sha1Length)
        var length: UInt32 = 0
        let produced = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                code.withUnsafeMutableBytes { output in
                    HMAC(
                        EVP_sha1(), keyBytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(keyBytes.count),
                        messageBytes.bindMemory(to: UInt8.self).baseAddress, messageBytes.count,
                        output.bindMemory(to: UInt8.self).baseAddress, &length)
                }
            }
        }
        precondition(produced != nil && Int(length) == sha1Length, "libcrypto could not compute HMAC-SHA1")
        return code
    }

    /// The AES-GCM key, nonce and tag sizes used: a 256-bit key, a 96-bit nonce (NIST SP
    /// 800-38D's recommended length, used directly as the counter block's start) and a
    /// 128-bit tag.
    static let aesGCMKeyLength = 32
    static let aesGCMNonceLength = 12
    static let aesGCMTagLength = 16

    /// `plaintext` encrypted and authenticated with AES-256-GCM under `key` and `nonce`, with
    /// `additionalData` authenticated too: the ciphertext (as long as the plaintext) followed by
    /// the 16-byte tag. `key` and `nonce` must have their sizes (a caller's error otherwise).
    static func aes256GCMSeal(key: Data, nonce: Data, plaintext: Data, additionalData: Data) -> Data {
        precondition(key.count == aesGCMKeyLength && nonce.count == aesGCMNonceLength, "AES-256-GCM key or nonce of the wrong size")
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("libcrypto could not allocate a cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = Data(count: plaintext.count + aesGCMTagLength)
        let sealed = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBytes { nonceBytes in
                output.withUnsafeMutableBytes { out -> Bool in
                    let out = out.bindMemory(to: UInt8.self)
                    guard EVP_EncryptInit_ex(
                        context, EVP_aes_256_gcm(), nil, keyBytes.bindMemory(to: UInt8.self).baseAddress,
                        nonceBytes.bindMemory(to: UInt8.self).baseAddress) == 1,
                        authenticate(additionalData, context: context, encrypting: true)
                    else { return false }
                    var written: Int32 = 0
                    if !plaintext.isEmpty {
                        let updated = plaintext.withUnsafeBytes { input in
                            EVP_EncryptUpdate(
                                context, out.baseAddress, &written, input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
                        }
                        guard updated == 1, Int(written) == plaintext.count else { return false }
                    }
                    var finalLength: Int32 = 0
                    guard EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &finalLength) == 1,
                        finalLength == 0
                    else { return false }
                    return EVP_CIPHER_CTX_ctrl(
                        context, EVP_CTRL_GCM_GET_TAG, Int32(aesGCMTagLength), out.baseAddress.map { $0 + plaintext.count }) == 1
                }
            }
        }
        precondition(sealed, "libcrypto could not seal with AES-256-GCM")
        return output
    }

    /// The plaintext of `sealed` (ciphertext then 16-byte tag, as ``aes256GCMSeal`` makes it)
    /// under `key`, `nonce` and `additionalData`; nil when the tag does not verify (another
    /// key, nonce or additional data, or any byte changed) or `sealed` is shorter than a tag.
    static func aes256GCMOpen(key: Data, nonce: Data, sealed: Data, additionalData: Data) -> Data? {
        precondition(key.count == aesGCMKeyLength && nonce.count == aesGCMNonceLength, "AES-256-GCM key or nonce of the wrong size")
        guard sealed.count >= aesGCMTagLength else { return nil }
        guard let context = EVP_CIPHER_CTX_new() else { preconditionFailure("libcrypto could not allocate a cipher context") }
        defer { EVP_CIPHER_CTX_free(context) }
        let ciphertextLength = sealed.count - aesGCMTagLength
        var tag = [UInt8](sealed.suffix(aesGCMTagLength))
        var plaintext = Data(count: ciphertextLength)
        let opened = key.withUnsafeBytes { keyBytes in
            nonce.withUnsafeBytes { nonceBytes in
                plaintext.withUnsafeMutableBytes { out -> Bool in
                    let out = out.bindMemory(to: UInt8.self)
                    guard EVP_DecryptInit_ex(
                        context, EVP_aes_256_gcm(), nil, keyBytes.bindMemory(to: UInt8.self).baseAddress,
                        nonceBytes.bindMemory(to: UInt8.self).baseAddress) == 1,
                        authenticate(additionalData, context: context, encrypting: false)
                    else { return false }
                    var written: Int32 = 0
                    if ciphertextLength > 0 {
                        let updated = sealed.prefix(ciphertextLength).withUnsafeBytes { input in
                            EVP_DecryptUpdate(
                                context, out.baseAddress, &written, input.bindMemory(to: UInt8.self).baseAddress, Int32(input.count))
                        }
                        guard updated == 1, Int(written) == ciphertextLength else { return false }
                    }
                    guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(aesGCMTagLength), &tag) == 1 else { return false }
                    var finalLength: Int32 = 0
                    // Fails when the tag does not verify.
                    return EVP_DecryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &finalLength) == 1
                }
            }
        }
        guard opened else {
            plaintext.resetBytes(in: 0..<plaintext.count)
            return nil
        }
        return plaintext
    }

    /// Feeds `additionalData` to the GCM context as authenticated data (no output).
    private static func authenticate(_ additionalData: Data, context: OpaquePointer, encrypting: Bool) -> Bool {
        guard !additionalData.isEmpty else { return true }
        var ignored: Int32 = 0
        return additionalData.withUnsafeBytes { bytes in
            let input = bytes.bindMemory(to: UInt8.self).baseAddress
            return encrypting
                ? EVP_EncryptUpdate(context, nil, &ignored, input, Int32(bytes.count)) == 1
                : EVP_DecryptUpdate(context, nil, &ignored, input, Int32(bytes.count)) == 1
        }
    }
}

// MARK: - Asymmetric signatures
//
// Keys cross this boundary as raw bytes (big-endian coordinates and scalars, raw Ed25519
// keys) once, when a key value is created: its EVP_PKEY is built and checked then and kept
// in a KeyHandle, which every later signature or verification with that key uses.

extension LibCrypto {
    /// One EVP_PKEY, built when a key value is created and freed with the handle. The pointer
    /// never leaves this file, and nothing modifies the key after it is built.
    ///
    /// Sendable, so that one key signs or verifies on many threads at once: OpenSSL objects may
    /// be used from several threads concurrently as long as the calls made do not modify them
    /// (openssl-threads(7)). Signing and verifying only read an EVP_PKEY: each operation makes
    /// its own EVP_MD_CTX and EVP_PKEY_CTX (which take a reference, counted atomically), and
    /// what OpenSSL caches inside a key on first use (RSA Montgomery values and blinding) it
    /// sets under the key's own lock.
    final class KeyHandle: @unchecked Sendable {
        fileprivate let pkey: OpaquePointer

        /// Takes ownership of `pkey`.
        fileprivate init(taking pkey: OpaquePointer) {
            self.pkey = pkey
        }

        deinit {
            EVP_PKEY_free(pkey)
        }
    }

    /// The byte length of a P-256 coordinate, scalar, and of each half of a raw signature.
    static let p256ScalarLength = 32
    /// The byte length of Ed25519 public keys and private seeds.
    static let ed25519KeyLength = 32
    /// The byte length of an Ed25519 signature.
    static let ed25519SignatureLength = 64

    /// A P-256 key in raw form: `d` is empty for a public key.
    struct P256Components {
        var x: Data
        var y: Data
        var d: Data
    }

    /// Generates a P-256 key pair.
    static func p256Generate() -> P256Components {
        let ctx = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        let status =
            ctx != nil && EVP_PKEY_keygen_init(ctx) == 1
            && EVP_PKEY_CTX_set_group_name(ctx, "P-256") == 1
            && EVP_PKEY_generate(ctx, &pkey) == 1
        defer { EVP_PKEY_free(pkey) }
        precondition(status, "libcrypto could not generate a P-256 key")
        var point = [UInt8](repeating: 0, count: 1 + 2 * p256ScalarLength)
        var length = 0
        guard
            EVP_PKEY_get_octet_string_param(pkey, OSSL_PKEY_PARAM_PUB_KEY, &point, point.count, &length) == 1,
            length == point.count, point[0] == 0x04,
            let d = privateScalar(pkey)
        else { preconditionFailure("libcrypto could not export a P-256 key") }
        return P256Components(x: Data(point[1...32]), y: Data(point[33...]), d: d)
    }

    /// The key `x`, `y` — a key pair with `d` unless `d` is empty — or nil unless it is a valid
    /// P-256 key: the point is on the curve and, for a key pair, is `d` times the generator.
    static func p256Key(_ key: P256Components) -> KeyHandle? {
        guard let pkey = p256PKey(key) else { return nil }
        let handle = KeyHandle(taking: pkey)
        guard !key.d.isEmpty else { return handle }
        return isPairwiseConsistent(pkey) ? handle : nil
    }

    /// A P-256 key pair as OpenSSL's EC_KEY, which signs without the provider dispatch of
    /// the EVP interface (see CECDSANonces), and a stock of nonces prepared for its signatures.
    ///
    /// Most of an ECDSA signature's work does not depend on what is signed: drawing the nonce
    /// k and computing r = x(kG) and k⁻¹. That part is prepared ahead, in batches that share
    /// their inversions (CECDSANonces), on an idle-class thread
    /// (``ComputationThread/startInIdleClass(_:)``), in CPU time nothing else wants — on a
    /// server whose writer waits for the disk, the time the core would stand idle — and a
    /// signature then costs a small part of a whole one (docs/performance.md). The stock is bounded
    /// (``nonceStockCapacity``); a signature that finds it empty lets OpenSSL draw its nonce,
    /// as ever (hedged with the key and the digest).
    ///
    /// An idle-class thread gets the processor only when no other thread wants it, so no
    /// request thread may ever wait for one: one preempted while holding what a request
    /// thread waits for would stall that request until the core fell idle. So the preparing
    /// thread draws k from the kernel (``nonceScalar(drawing:)``), not from OpenSSL's DRBG and
    /// its process-wide locks, and a signature only tries the stock's lock: when another thread
    /// holds it (the preparing thread, or now and then another signature), the signature goes
    /// without a prepared nonce.
    ///
    /// A nonce signs once: two signatures with one k reveal the private key. Each is taken out
    /// of the stock under its lock before it is used and cleared from memory right after, and
    /// a stock prepared in another process (this one's parent, before a fork) is dropped
    /// unused. Read-only once built otherwise, like ``KeyHandle``: one key signs on many
    /// threads at once.
    final class P256Signer: @unchecked Sendable {
        fileprivate let key: OpaquePointer
        /// The prepared nonces (internal, not private, for the test that holds its lock).
        let stock = Mutex(NonceStock())

        /// A prepared k⁻¹ and r (two BIGNUMs), owned by whoever holds it.
        struct PreparedNonce: @unchecked Sendable {
            fileprivate let kinv: OpaquePointer
            fileprivate let r: OpaquePointer

            /// Clears and frees both numbers.
            func destroy() {
                BN_clear_free(kinv)
                BN_clear_free(r)
            }
        }

        struct NonceStock {
            var nonces: [PreparedNonce] = []
            /// The process the nonces were prepared in.
            var process = getpid()
            /// Whether a thread is preparing more.
            var preparing = false
        }

        /// The most nonces a key keeps prepared (some 150 bytes each): enough for the
        /// signatures between two of the writer's waits for the disk under refresh rotations
        /// (a few hundred), so the stock prepared in one wait lasts until the next.
        static let nonceStockCapacity = 1024
        /// Below this many, a signature starts a thread preparing more: a quarter of the stock
        /// at least per thread, so starting one costs little beside its work.
        static let nonceStockRefill = 768
        /// How many nonces are prepared together: they share two inversions (see CECDSANonces).
        static let nonceBatch = 32

        /// The order n of P-256's group, big-endian.
        private static let p256Order: [UInt8] = [
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ]

        /// Takes ownership of `key`.
        fileprivate init(taking key: OpaquePointer) {
            self.key = key
        }

        deinit {
            stock.withLock { stock in
                for nonce in stock.nonces { nonce.destroy() }
            }
            latchkey_ec_key_free(key)
        }

        /// How many prepared nonces wait in the stock.
        var preparedNonceCount: Int {
            stock.withLock { $0.nonces.count }
        }

        /// A nonce scalar k uniform in [1, n − 1]: 32 bytes `draw` writes, drawn again (in the
        /// same bytes) while they are 0 or not below n — rejection, not reduction mod n, which
        /// would make small values likelier. A draw is rejected with odds of about 2⁻³².
        static func nonceScalar(drawing draw: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
            var candidate = [UInt8](repeating: 0, count: p256ScalarLength)
            repeat {
                candidate.withUnsafeMutableBytes(draw)
            } while !candidate.contains(where: { $0 != 0 }) || !candidate.lexicographicallyPrecedes(p256Order)
            return candidate
        }

        /// The nonces of the `scalars` k (each 32 bytes in [1, n − 1]), prepared as one batch
        /// (``latchkey_ecdsa_prepare``, CECDSANonces), or nil if OpenSSL fails.
        func prepareNonces(scalars: [[UInt8]]) -> [PreparedNonce]? {
            guard !scalars.isEmpty else { return [] }
            var packed = scalars.flatMap { $0 }
            defer { cleanse(&packed) }
            precondition(packed.count == scalars.count * p256ScalarLength, "a nonce scalar has the wrong length")
            var kinv = [OpaquePointer?](repeating: nil, count: scalars.count)
            var r = [OpaquePointer?](repeating: nil, count: scalars.count)
            guard latchkey_ecdsa_prepare(key, scalars.count, packed, &kinv, &r) == 1 else { return nil }
            return zip(kinv, r).map { PreparedNonce(kinv: $0!, r: $1!) }
        }

        /// A prepared nonce, taken out of the stock (the caller destroys it), or nil when the
        /// stock is empty or its lock is held; starts a thread preparing more when it runs low.
        fileprivate func takeNonce() -> PreparedNonce? {
            let pid = getpid()
            let taken = stock.withLockIfAvailable { stock -> (PreparedNonce?, Bool) in
                if stock.process != pid {
                    // Prepared in the parent before a fork: the parent may use them too.
                    for nonce in stock.nonces { nonce.destroy() }
                    stock.nonces.removeAll()
                    stock.process = pid
                    stock.preparing = false
                }
                let nonce = stock.nonces.popLast()
                guard stock.nonces.count < Self.nonceStockRefill, !stock.preparing else { return (nonce, false) }
                stock.preparing = true
                return (nonce, true)
            }
            guard let (nonce, refill) = taken else { return nil }
            if refill, !ComputationThread.startInIdleClass({ self.prepareNonces() }) {
                stock.withLock { $0.preparing = false }
            }
            return nonce
        }

        /// Prepares nonces until the stock is full (on the thread ``takeNonce()`` starts; tests
        /// call it directly), ``nonceBatch`` at a time.
        func prepareNonces() {
            let pid = getpid()
            /// How many more nonces the stock takes (none in a process it was not prepared in).
            func room(_ stock: NonceStock) -> Int {
                stock.process == pid ? Self.nonceStockCapacity - stock.nonces.count : 0
            }
            var left = stock.withLock { room($0) }
            while left > 0 {
                var scalars = (0..<min(Self.nonceBatch, left)).map { _ in Self.nonceScalar(drawing: fillRandom) }
                let prepared = prepareNonces(scalars: scalars)
                for index in scalars.indices { cleanse(&scalars[index]) }
                guard let nonces = prepared else { break }
                left = stock.withLock { stock -> Int in
                    let taken = min(room(stock), nonces.count)
                    stock.nonces += nonces[..<taken]
                    for nonce in nonces[taken...] { nonce.destroy() }
                    return room(stock)
                }
            }
            stock.withLock { $0.preparing = false }
        }
    }

    /// The signer of the P-256 key pair `key` (from ``p256Key(_:)`` with `d`).
    static func p256Signer(_ key: KeyHandle) -> P256Signer {
        guard let ecKey = latchkey_ec_key(key.pkey) else {
            preconditionFailure("libcrypto could not use a validated P-256 key pair as an EC_KEY")
        }
        return P256Signer(taking: ecKey)
    }

    /// Signs SHA-256(`message`) with ECDSA under `signer` and returns the raw 64-byte `r || s`:
    /// with a prepared nonce when the stock has one.
    static func p256Sign(_ signer: P256Signer, message: Data) -> Data {
        if let nonce = signer.takeNonce(), let signature = p256Sign(signer, message: message, nonce: nonce) {
            return signature
        }
        let digest = [UInt8](sha256(message))
        var signature = [UInt8](repeating: 0, count: 2 * p256ScalarLength)
        guard latchkey_ecdsa_sign(signer.key, digest, nil, nil, &signature) == 1 else {
            preconditionFailure("libcrypto could not sign with a validated P-256 key")
        }
        return Data(signature)
    }

    /// Signs SHA-256(`message`) with ECDSA under `signer` with the prepared `nonce`, which it
    /// destroys; nil only if this k gives s = 0 for this digest (odds 2⁻²⁵⁶), when another
    /// nonce must sign.
    static func p256Sign(_ signer: P256Signer, message: Data, nonce: P256Signer.PreparedNonce) -> Data? {
        defer { nonce.destroy() }
        let digest = [UInt8](sha256(message))
        var signature = [UInt8](repeating: 0, count: 2 * p256ScalarLength)
        guard latchkey_ecdsa_sign(signer.key, digest, nonce.kinv, nonce.r, &signature) == 1 else { return nil }
        return Data(signature)
    }

    /// Verifies a raw 64-byte `r || s` ECDSA signature over SHA-256(`message`) under `key`.
    static func p256Verify(_ key: KeyHandle, message: Data, signature: Data) -> Bool {
        guard let der = derECDSASignature(signature) else { return false }
        return digestVerify(key.pkey, digest: sha256Digest, message: message, signature: der)
    }

    /// The longest DER ECDSA-Sig-Value over P-256: a SEQUENCE of two INTEGERs of up to 33
    /// bytes each (a leading zero when the high bit is set).
    static let p256DERSignatureMaximumLength = 72

    /// Verifies a DER-encoded ECDSA-Sig-Value (as WebAuthn and X.509 carry ECDSA signatures)
    /// over SHA-256(`message`) under `key`. libcrypto decodes the signature and refuses it
    /// unless re-encoding gives the same bytes, so only strict DER verifies (no BER length
    /// forms, no padding zeros, no trailing bytes).
    static func p256VerifyDER(_ key: KeyHandle, message: Data, signature: Data) -> Bool {
        guard !signature.isEmpty, signature.count <= p256DERSignatureMaximumLength else { return false }
        return digestVerify(key.pkey, digest: sha256Digest, message: message, signature: signature)
    }

    /// Generates an Ed25519 key and returns its 32-byte private seed.
    static func ed25519GenerateSeed() -> Data {
        let ctx = EVP_PKEY_CTX_new_from_name(nil, "ED25519", nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        let status = ctx != nil && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_generate(ctx, &pkey) == 1
        defer { EVP_PKEY_free(pkey) }
        precondition(status, "libcrypto could not generate an Ed25519 key")
        var seed = [UInt8](repeating: 0, count: ed25519KeyLength)
        var length = seed.count
        precondition(
            EVP_PKEY_get_raw_private_key(pkey, &seed, &length) == 1 && length == ed25519KeyLength,
            "libcrypto could not export an Ed25519 key")
        defer { cleanse(&seed) }
        return Data(seed)
    }

    /// The Ed25519 key pair of `seed` with its 32-byte public key, or nil if the seed is not
    /// 32 bytes.
    static func ed25519PrivateKey(seed: Data) -> (key: KeyHandle, publicKey: Data)? {
        guard seed.count == ed25519KeyLength else { return nil }
        let pkey = seed.withUnsafeBytes { buffer in
            EVP_PKEY_new_raw_private_key_ex(
                nil, "ED25519", nil, buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count)
        }
        guard let pkey else { return nil }
        let handle = KeyHandle(taking: pkey)
        var publicKey = [UInt8](repeating: 0, count: ed25519KeyLength)
        var length = publicKey.count
        guard EVP_PKEY_get_raw_public_key(pkey, &publicKey, &length) == 1, length == ed25519KeyLength else {
            return nil
        }
        return (handle, Data(publicKey))
    }

    /// The Ed25519 public key `rawRepresentation`, or nil if it is not 32 bytes.
    static func ed25519PublicKey(_ rawRepresentation: Data) -> KeyHandle? {
        guard rawRepresentation.count == ed25519KeyLength else { return nil }
        let pkey = rawRepresentation.withUnsafeBytes { buffer in
            EVP_PKEY_new_raw_public_key_ex(
                nil, "ED25519", nil, buffer.bindMemory(to: UInt8.self).baseAddress, buffer.count)
        }
        return pkey.map(KeyHandle.init(taking:))
    }

    /// Signs `message` with the Ed25519 key pair `key` (RFC 8032, deterministic).
    static func ed25519Sign(_ key: KeyHandle, message: Data) -> Data {
        guard let signature = digestSign(key.pkey, digest: nil, message: message),
            signature.count == ed25519SignatureLength
        else { preconditionFailure("libcrypto could not sign with a validated Ed25519 key") }
        return signature
    }

    /// Verifies an Ed25519 signature under `key`.
    static func ed25519Verify(_ key: KeyHandle, message: Data, signature: Data) -> Bool {
        guard signature.count == ed25519SignatureLength else { return false }
        return digestVerify(key.pkey, digest: nil, message: message, signature: signature)
    }

    /// The bit length of an RSA modulus given as big-endian bytes.
    static func bitLength(_ bigEndian: Data) -> Int {
        guard let number = bignum(bigEndian) else { return 0 }
        defer { BN_free(number) }
        return Int(BN_num_bits(number))
    }

    /// An RSA key in raw form: big-endian `n` and `e`, and for a private key `d` with the CRT
    /// values (`p`, `q`, `dp`, `dq`, `qi`); the private members are empty for a public key.
    struct RSAComponents {
        var n: Data
        var e: Data
        var d = Data()
        var p = Data()
        var q = Data()
        var dp = Data()
        var dq = Data()
        var qi = Data()

        var isPrivate: Bool { !d.isEmpty }
    }

    /// Generates an RSA key pair with a `bits`-bit modulus and the exponent 65537.
    static func rsaGenerate(bits: Int) -> RSAComponents {
        let ctx = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        let status =
            ctx != nil && EVP_PKEY_keygen_init(ctx) == 1 && EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, Int32(bits)) == 1
            && EVP_PKEY_generate(ctx, &pkey) == 1
        defer { EVP_PKEY_free(pkey) }
        precondition(status, "libcrypto could not generate an RSA key")
        guard let n = bignumParameter(pkey, latchkey_param_rsa_n()), let e = bignumParameter(pkey, latchkey_param_rsa_e()),
            let d = bignumParameter(pkey, latchkey_param_rsa_d()), let p = bignumParameter(pkey, latchkey_param_rsa_factor1()),
            let q = bignumParameter(pkey, latchkey_param_rsa_factor2()),
            let dp = bignumParameter(pkey, latchkey_param_rsa_exponent1()),
            let dq = bignumParameter(pkey, latchkey_param_rsa_exponent2()),
            let qi = bignumParameter(pkey, latchkey_param_rsa_coefficient1())
        else { preconditionFailure("libcrypto could not export an RSA key") }
        return RSAComponents(n: n, e: e, d: d, p: p, q: q, dp: dp, dq: dq, qi: qi)
    }

    /// The RSA key `key` — a key pair when it has `d` — or nil if OpenSSL refuses the values or,
    /// for a key pair, they are not consistent: its primes multiply to `n`, `d` inverts `e` and
    /// the CRT values belong to them (OpenSSL's pairwise check).
    static func rsaKey(_ key: RSAComponents) -> KeyHandle? {
        guard let pkey = rsaPKey(key) else { return nil }
        let handle = KeyHandle(taking: pkey)
        guard key.isPrivate else { return handle }
        return isPairwiseConsistent(pkey) ? handle : nil
    }

    /// Signs SHA-256(`message`) with RSASSA-PKCS1-v1_5 (deterministic) under the RSA key pair
    /// `key`; the signature is as long as the modulus.
    static func rsaSignSHA256(_ key: KeyHandle, message: Data) -> Data {
        guard let signature = digestSign(key.pkey, digest: sha256Digest, message: message) else {
            preconditionFailure("libcrypto could not sign with a validated RSA key")
        }
        return signature
    }

    /// Verifies an RSASSA-PKCS1-v1_5 SHA-256 signature under `key`.
    static func rsaVerifySHA256(_ key: KeyHandle, message: Data, signature: Data) -> Bool {
        digestVerify(key.pkey, digest: sha256Digest, message: message, signature: signature)
    }

    // MARK: Helpers that keep EVP_PKEY, BIGNUM and OSSL_PARAM inside this file

    private static func cleanse(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
    }

    private static func bignum(_ bigEndian: some DataProtocol) -> OpaquePointer? {
        let bytes = [UInt8](bigEndian)
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }

    /// A BIGNUM in OpenSSL's secure heap (when one is configured), so the parameter block
    /// built from it is also secure and is cleared when freed.
    private static func secretBignum(_ bigEndian: Data) -> OpaquePointer? {
        guard let number = BN_secure_new() else { return nil }
        let bytes = [UInt8](bigEndian)
        guard BN_bin2bn(bytes, Int32(bytes.count), number) != nil else {
            BN_clear_free(number)
            return nil
        }
        return number
    }

    private static func unpaddedBignum(_ number: OpaquePointer?) -> Data? {
        var bytes = [UInt8](repeating: 0, count: p256ScalarLength)
        guard let number, BN_bn2binpad(number, &bytes, Int32(bytes.count)) == Int32(bytes.count) else {
            return nil
        }
        return Data(bytes)
    }

    private static func privateScalar(_ pkey: OpaquePointer?) -> Data? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pkey, latchkey_param_private_key(), &number) == 1 else { return nil }
        defer { BN_clear_free(number) }
        return unpaddedBignum(number)
    }

    /// The DER-encoded ECDSA-Sig-Value of a raw 64-byte `r || s`; nil for any other length.
    private static func derECDSASignature(_ signature: Data) -> Data? {
        guard signature.count == 2 * p256ScalarLength else { return nil }
        guard let sig = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(sig) }
        let r = bignum(signature.prefix(p256ScalarLength))
        let s = bignum(signature.suffix(p256ScalarLength))
        guard let r, let s, ECDSA_SIG_set0(sig, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        let length = i2d_ECDSA_SIG(sig, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_ECDSA_SIG(sig, &cursor)
        }
        guard written == length else { return nil }
        return Data(der)
    }

    private static func withParameters<Result>(
        _ build: (OpaquePointer) -> Bool, _ body: (UnsafeMutablePointer<OSSL_PARAM>) -> Result
    ) -> Result? {
        guard let builder = OSSL_PARAM_BLD_new() else { return nil }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard build(builder), let params = OSSL_PARAM_BLD_to_param(builder) else { return nil }
        defer { OSSL_PARAM_free(params) }
        return body(params)
    }

    private static func keyFromData(
        algorithm: String, selection: Int32, params: UnsafeMutablePointer<OSSL_PARAM>
    ) -> OpaquePointer? {
        let ctx = EVP_PKEY_CTX_new_from_name(nil, algorithm, nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        var pkey: OpaquePointer?
        guard ctx != nil, EVP_PKEY_fromdata_init(ctx) == 1,
            EVP_PKEY_fromdata(ctx, &pkey, selection, params) == 1
        else {
            ERR_clear_error()
            return nil
        }
        return pkey
    }

    /// Whether the key pair `pkey` passes OpenSSL's pairwise check (its public key belongs to
    /// its private key).
    private static func isPairwiseConsistent(_ pkey: OpaquePointer) -> Bool {
        let ctx = EVP_PKEY_CTX_new_from_pkey(nil, pkey, nil)
        defer { EVP_PKEY_CTX_free(ctx) }
        let valid = ctx != nil && EVP_PKEY_pairwise_check(ctx) == 1
        ERR_clear_error()
        return valid
    }

    /// A BIGNUM parameter of `pkey` as unpadded big-endian bytes (cleared from memory after copying).
    private static func bignumParameter(_ pkey: OpaquePointer?, _ name: UnsafePointer<CChar>) -> Data? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pkey, name, &number) == 1, let number else { return nil }
        defer { BN_clear_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        defer { cleanse(&bytes) }
        guard BN_bn2bin(number, &bytes) == Int32(bytes.count) else { return nil }
        return Data(bytes)
    }

    /// Builds the EVP_PKEY for the RSA `key` (a key pair when it has `d`, whose private values
    /// go through the secure heap); the caller owns it. Nil if OpenSSL refuses the values.
    private static func rsaPKey(_ key: RSAComponents) -> OpaquePointer? {
        let publicNumbers = [bignum(key.n), bignum(key.e)]
        defer { publicNumbers.forEach { BN_free($0) } }
        let privateNumbers = key.isPrivate ? [key.d, key.p, key.q, key.dp, key.dq, key.qi].map(secretBignum) : []
        defer { privateNumbers.forEach { BN_clear_free($0) } }
        guard publicNumbers.allSatisfy({ $0 != nil }), privateNumbers.allSatisfy({ $0 != nil }) else { return nil }
        let names = [latchkey_param_rsa_n(), latchkey_param_rsa_e()]
            + (key.isPrivate
                ? [
                    latchkey_param_rsa_d(), latchkey_param_rsa_factor1(), latchkey_param_rsa_factor2(),
                    latchkey_param_rsa_exponent1(), latchkey_param_rsa_exponent2(), latchkey_param_rsa_coefficient1(),
                ] : [])
        let pkey = withParameters({ builder in
            zip(names, publicNumbers + privateNumbers).allSatisfy { name, number in
                OSSL_PARAM_BLD_push_BN(builder, name, number) == 1
            }
        }) { params in
            keyFromData(
                algorithm: "RSA", selection: key.isPrivate ? latchkey_selection_keypair() : latchkey_selection_public_key(),
                params: params)
        }
        return pkey ?? nil
    }

    /// Builds the EVP_PKEY for the P-256 `key` (a key pair when `d` is not empty; `d` goes
    /// through the secure heap); the caller owns it. Nil if a length is wrong or OpenSSL
    /// refuses the values (a point that is not on the curve).
    private static func p256PKey(_ key: P256Components) -> OpaquePointer? {
        guard key.x.count == p256ScalarLength, key.y.count == p256ScalarLength,
            key.d.isEmpty || key.d.count == p256ScalarLength
        else { return nil }
        let point = [UInt8]([0x04] + key.x + key.y)
        let d = key.d.isEmpty ? nil : secretBignum(key.d)
        defer { BN_clear_free(d) }
        // The builder holds the group name and point by pointer until it makes the
        // parameters, so both stay borrowed for the whole build.
        let pkey = "prime256v1".withCString { group in
            point.withUnsafeBufferPointer { pointBuffer in
                withParameters({ builder in
                    let base =
                        OSSL_PARAM_BLD_push_utf8_string(builder, latchkey_param_group_name(), group, 0) == 1
                        && OSSL_PARAM_BLD_push_octet_string(
                            builder, latchkey_param_public_key(), pointBuffer.baseAddress, pointBuffer.count) == 1
                    guard let d else { return base && key.d.isEmpty }
                    return base && OSSL_PARAM_BLD_push_BN(builder, latchkey_param_private_key(), d) == 1
                }) { params in
                    keyFromData(
                        algorithm: "EC",
                        selection: d == nil ? latchkey_selection_public_key() : latchkey_selection_keypair(),
                        params: params)
                }
            }
        }
        return pkey ?? nil
    }

    /// One-shot EVP_DigestSign; `digest` is nil for Ed25519, which hashes internally.
    private static func digestSign(_ pkey: OpaquePointer, digest: OpaquePointer?, message: Data) -> Data? {
        guard let ctx = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestSignInit(ctx, nil, digest, nil, pkey) == 1 else { return nil }
        let bytes = [UInt8](message)
        var length = 0
        guard EVP_DigestSign(ctx, nil, &length, bytes, bytes.count) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(ctx, &signature, &length, bytes, bytes.count) == 1 else { return nil }
        return Data(signature.prefix(length))
    }

    private static func digestVerify(
        _ pkey: OpaquePointer, digest: OpaquePointer?, message: Data, signature: Data
    ) -> Bool {
        guard let ctx = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(ctx) }
        guard EVP_DigestVerifyInit(ctx, nil, digest, nil, pkey) == 1 else { return false }
        let bytes = [UInt8](message)
        let signatureBytes = [UInt8](signature)
        let status = EVP_DigestVerify(ctx, signatureBytes, signatureBytes.count, bytes, bytes.count)
        // A failed verification leaves entries on OpenSSL's thread-local error queue.
        ERR_clear_error()
        return status == 1
    }
}
