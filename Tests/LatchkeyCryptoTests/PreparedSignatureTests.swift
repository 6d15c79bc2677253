import Dispatch
import Foundation
@testable import LatchkeyCrypto
import Synchronization
import Testing

/// ES256 signatures with nonces prepared ahead: each nonce signs once, whatever the
/// concurrency, and every signature verifies.
@Suite struct PreparedSignatureTests {
    /// Signs `count` distinct messages with `key` from 16 threads released at once.
    private static func sign(_ count: Int, with key: P256PrivateKey, tag: String) -> [(message: Data, signature: Data)] {
        let results = Mutex<[(message: Data, signature: Data)]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for index in stride(from: thread, to: count, by: 16) {
                let message = Data("\(tag) \(index)".utf8)
                let signature = key.signature(for: message)
                results.withLock { $0.append((message, signature)) }
            }
        }
        return results.withLock { $0 }
    }

    @Test("each prepared nonce signs once: signatures from 16 threads at once all verify, no two share an r, and each takes at most one nonce from the stock")
    func preparedNoncesSignOnce() {
        let key = P256PrivateKey.generate()
        key.prepareSignatures()
        let stock = key.preparedSignatureCount
        #expect(stock == 1024)
        // 200 signatures leave more than three quarters of the stock, so no thread refills it
        // meanwhile. A signature that finds another in the stock's lock does not wait: it signs
        // with a nonce of its own (3 of 200 did on a loaded machine), so at most 200 are taken.
        let first = Self.sign(200, with: key, tag: "first")
        #expect((100...200).contains(stock - key.preparedSignatureCount))
        // Then past the refill mark and, faster than an idle-class thread refills, the bottom.
        let second = Self.sign(1200, with: key, tag: "second")
        let all = first + second
        #expect(all.count == 1400)
        #expect(all.allSatisfy { $0.signature.count == 64 && key.publicKey.isValidSignature($0.signature, for: $0.message) })
        // One k gives one r: a nonce used twice would show as a repeated r (and reveal the key).
        #expect(Set(all.map { $0.signature.prefix(32) }).count == all.count)
    }

    @Test("a key whose stock is empty signs with nonces of its own, and the signatures verify")
    func emptyStockSigns() {
        let key = P256PrivateKey.generate()
        #expect(key.preparedSignatureCount == 0)
        let message = Data("payload".utf8)
        let signatures = (0..<8).map { _ in key.signature(for: message) }
        #expect(signatures.allSatisfy { key.publicKey.isValidSignature($0, for: message) })
        #expect(Set(signatures).count == signatures.count)
    }

    /// RFC 6979, A.2.5: P-256 with SHA-256. The RFC's nonces are deterministic; here they are
    /// handed to the preparation as the kernel's draws would be.
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

    private static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test("nonces prepared from given k, alone or in one batch, sign as RFC 6979's P-256 vectors say: r = x(kG) and s = k⁻¹(h + rd)")
    func preparedNoncesMatchRFC6979() throws {
        let key = try #require(LibCrypto.p256Key(.init(
            x: Data(Self.bytes(Self.vectorKey.x)), y: Data(Self.bytes(Self.vectorKey.y)),
            d: Data(Self.bytes(Self.vectorKey.d)))))
        let signer = LibCrypto.p256Signer(key)
        // Alone, then both in one batch three times over (the batch shares its inversions).
        let batches = Self.vectors.map { [$0] } + [Array(repeating: Self.vectors, count: 3).flatMap { $0 }]
        for batch in batches {
            let nonces = try #require(signer.prepareNonces(scalars: batch.map { Self.bytes($0.k) }))
            #expect(nonces.count == batch.count)
            for (vector, nonce) in zip(batch, nonces) {
                let signature = LibCrypto.p256Sign(signer, message: Data(vector.message.utf8), nonce: nonce)
                #expect(signature?.hex == vector.signature, "message \(vector.message) in a batch of \(batch.count)")
            }
        }
    }

    @Test("a stock prepared in another process (this one's parent, before a fork) is dropped unused: its nonce signs nothing here")
    func stockOfAnotherProcessIsDropped() throws {
        let key = try #require(LibCrypto.p256Key(.init(
            x: Data(Self.bytes(Self.vectorKey.x)), y: Data(Self.bytes(Self.vectorKey.y)),
            d: Data(Self.bytes(Self.vectorKey.d)))))
        let signer = LibCrypto.p256Signer(key)
        let vector = Self.vectors[0]
        let message = Data(vector.message.utf8)
        /// Puts the nonce of the vector's k alone in the stock, as prepared in process `process`.
        func stock(preparedIn process: pid_t) throws {
            let nonces = try #require(signer.prepareNonces(scalars: [Self.bytes(vector.k)]))
            signer.stock.withLock { stock in
                for nonce in stock.nonces { nonce.destroy() }
                stock.nonces = nonces
                stock.process = process
            }
        }
        // Prepared in this process, the nonce signs: the vector's signature.
        try stock(preparedIn: getpid())
        #expect(LibCrypto.p256Sign(signer, message: message).hex == vector.signature)
        // Prepared in another, it is dropped, and a nonce of this process signs instead.
        try stock(preparedIn: getpid() &+ 1)
        let signature = LibCrypto.p256Sign(signer, message: message)
        #expect(signature.hex != vector.signature)
        #expect(LibCrypto.p256Verify(key, message: message, signature: signature))
    }

    @Test("a nonce scalar is drawn again while it is 0 or not below the group order n, and n − 1 and 1 are taken")
    func nonceScalarRejectsOutOfRange() {
        let order = Self.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        let belowOrder = Self.bytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550")
        let one = [UInt8](repeating: 0, count: 31) + [1]
        var draws = [order, [UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xFF, count: 32), belowOrder, one]
        var asked: [Int] = []
        let draw: (UnsafeMutableRawBufferPointer) -> Void = { buffer in
            asked.append(buffer.count)
            buffer.copyBytes(from: draws.removeFirst())
        }
        #expect(LibCrypto.P256Signer.nonceScalar(drawing: draw) == belowOrder)
        #expect(asked == [32, 32, 32, 32])
        #expect(LibCrypto.P256Signer.nonceScalar(drawing: draw) == one)
        #expect(draws.isEmpty)
    }

    @Test("a signature does not wait for a stock whose lock another thread holds: it signs with a nonce of its own and leaves the stock as it was")
    func signatureSkipsHeldStock() throws {
        let key = try #require(LibCrypto.p256Key(LibCrypto.p256Generate()))
        let signer = LibCrypto.p256Signer(key)
        signer.prepareNonces()
        let message = Data("while the stock is held".utf8)
        let signed = DispatchSemaphore(value: 0)
        let signature = Mutex<Data?>(nil)
        let finished = signer.stock.withLock { _ -> Bool in
            // The preparing thread holds the lock like this while it adds a nonce.
            Thread.detachNewThread {
                let made = LibCrypto.p256Sign(signer, message: message)
                signature.withLock { $0 = made }
                signed.signal()
            }
            return signed.wait(timeout: .now() + 30) == .success
        }
        #expect(finished, "the signature waited for the stock's lock")
        if !finished { signed.wait() }
        let made = try #require(signature.withLock { $0 })
        #expect(LibCrypto.p256Verify(key, message: message, signature: made))
        #expect(signer.preparedNonceCount == LibCrypto.P256Signer.nonceStockCapacity)
    }
}

