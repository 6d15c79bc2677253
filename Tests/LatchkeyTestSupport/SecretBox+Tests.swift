import Foundation
package import LatchkeyCrypto

extension SecretBox {
    /// One box for every store a test process opens, under a random key, so a store and the
    /// other stores on its database (``StoreFixture``'s `openAnother`) open each other's mail.
    package static let forTests: SecretBox = {
        do {
            return try SecretBox(key: Redacted(SecureRandom.bytes(SecretBox.keyLength)))
        } catch {
            fatalError("a random key of the right length was refused: \(error)")
        }
    }()
}
