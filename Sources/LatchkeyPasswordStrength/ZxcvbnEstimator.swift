package import LatchkeyCore
import CZxcvbn
import Foundation
package import LatchkeyCrypto

/// Estimates how hard a password is to guess, with zxcvbn (the C port, zxcvbn-c): it finds
/// dictionary words, common passwords, keyboard patterns, sequences, repeats, dates and
/// the caller's own words, and sums the cheapest way to guess them.
///
/// zxcvbn-c keeps no mutable global state, so one estimator may be used from any thread.
package struct ZxcvbnEstimator: PasswordStrengthEstimator {
    /// Creates an estimator. The dictionaries are compiled into libzxcvbn.
    package init() {}

    /// The zxcvbn score of `password`, 0 (trivial) to 4 (very hard), from the estimated
    /// number of guesses: under 10³ → 0, 10⁶ → 1, 10⁸ → 2, 10¹⁰ → 3, otherwise 4.
    ///
    /// - Parameters:
    ///   - password: The password as it will be hashed. zxcvbn reads it as a C string, so
    ///     it stops at a NUL character; the estimate is then of the part before it.
    ///   - userInputs: Words particularly bad in this password (the user's email address,
    ///     name, the site name); zxcvbn treats them like common-password dictionary words.
    package func score(of password: Redacted<String>, userInputs: [String]) -> Int {
        let bits = entropyBits(of: password, userInputs: userInputs)
        let log10Guesses = bits * log10(2.0)
        switch log10Guesses {
        case ..<3: return 0
        case ..<6: return 1
        case ..<8: return 2
        case ..<10: return 3
        default: return 4
        }
    }

    /// log₂ of the estimated number of guesses, as ZxcvbnMatch returns it.
    private func entropyBits(of password: Redacted<String>, userInputs: [String]) -> Double {
        // All user words, NUL-terminated, in one buffer; the dictionary array points into it.
        var words = [CChar]()
        var offsets = [Int]()
        for input in userInputs where !input.utf8.contains(0) {
            offsets.append(words.count)
            words.append(contentsOf: input.utf8.map { CChar(bitPattern: $0) })
            words.append(0)
        }
        return words.withUnsafeBufferPointer { storage in
            var dictionary: [UnsafePointer<CChar>?] = offsets.map { storage.baseAddress! + $0 }
            dictionary.append(nil)
            return dictionary.withUnsafeMutableBufferPointer { list in
                password.exposed.withCString { ZxcvbnMatch($0, list.baseAddress, nil) }
            }
        }
    }
}

extension PasswordPolicy {
    /// The default policy: 8 to 128 characters, zxcvbn score at least 3.
    package init() {
        // The bounds are valid, so this cannot throw.
        try! self.init(minimumLength: 8, maximumLength: 128, minimumScore: 3, estimator: ZxcvbnEstimator())
    }

    /// A policy with the given bounds, scoring strength with zxcvbn. Throws as
    /// ``PasswordPolicy/init(minimumLength:maximumLength:minimumScore:estimator:)``.
    package init(minimumLength: Int, maximumLength: Int, minimumScore: Int) throws {
        try self.init(minimumLength: minimumLength, maximumLength: maximumLength, minimumScore: minimumScore, estimator: ZxcvbnEstimator())
    }
}
