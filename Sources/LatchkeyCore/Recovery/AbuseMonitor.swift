package import Foundation
import Synchronization

/// Notices when one source (an IP, an email domain) sends unusually many reset requests and
/// logs one warning per source per ten-minute bucket once it reaches the threshold.
package final class AbuseMonitor: Sendable {
    private let threshold: Int
    private let bucketSeconds: TimeInterval = 600
    private let maximumKeys = 100_000
    private let counts = Mutex<(bucket: Int, perKey: [String: Int])>((bucket: 0, perKey: [:]))

    package init(threshold: Int) {
        self.threshold = threshold
    }

    /// Counts one request for `key` at `now`; true exactly when the count reaches the threshold.
    package func record(_ key: String, now: Date) -> Bool {
        let bucket = Int(now.timeIntervalSince1970 / bucketSeconds)
        return counts.withLock { state in
            if state.bucket != bucket { state = (bucket: bucket, perKey: [:]) }
            // One lookup for a key already counted, two for a new one (every request counts two).
            if let index = state.perKey.index(forKey: key) {
                state.perKey.values[index] += 1
                return state.perKey.values[index] == threshold
            }
            guard state.perKey.count < maximumKeys else { return false }
            state.perKey[key] = 1
            return threshold == 1
        }
    }
}
