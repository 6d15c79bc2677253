import Dispatch
import Foundation
import LatchkeyCrypto
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

    @Test("each prepared nonce signs once: signatures from 16 threads at once all verify, no two share an r, and each takes one nonce from the stock")
    func preparedNoncesSignOnce() {
        let key = P256PrivateKey.generate()
        key.prepareSignatures()
        let stock = key.preparedSignatureCount
        #expect(stock == 1024)
        // 200 signatures leave more than three quarters of the stock, so no thread refills it meanwhile.
        let first = Self.sign(200, with: key, tag: "first")
        #expect(key.preparedSignatureCount == stock - 200)
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
}
