import Foundation

/// How many processors this process may run on.
package enum AvailableProcessors {
    /// The processors in this process's CPU affinity mask (`taskset -c 0` gives 1), read from
    /// `Cpus_allowed` in /proc/self/status; the active processor count where that cannot be read.
    package static var count: Int {
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let mask = status?.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed:") }?.dropFirst("Cpus_allowed:".count)
        let allowed = mask?.reduce(0) { $0 + ($1.hexDigitValue?.nonzeroBitCount ?? 0) } ?? 0
        return allowed > 0 ? allowed : ProcessInfo.processInfo.activeProcessorCount
    }
}
