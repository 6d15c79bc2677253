import Foundation

/// The standard `process_*` metrics of Prometheus's client libraries, read from Linux's
/// `/proc/self` when `/metrics` is asked for: resident memory, open file descriptors, the
/// process's start time and the CPU it used.
package enum ProcessMetrics {
    /// One reading.
    package struct Sample: Sendable, Equatable {
        /// Resident memory in bytes (`/proc/self/statm`'s second field times the page size).
        package var residentMemoryBytes: Int
        /// File descriptors open (the entries of `/proc/self/fd`).
        package var openFileDescriptors: Int
        /// The most descriptors the process may open (`RLIMIT_NOFILE`).
        package var maximumFileDescriptors: Int
        /// When the process started, in seconds since the Unix epoch.
        package var startTimeSeconds: Double
        /// User and system CPU time used, in seconds.
        package var cpuSeconds: Double

        /// Creates a sample value.
        package init(
            residentMemoryBytes: Int, openFileDescriptors: Int, maximumFileDescriptors: Int, startTimeSeconds: Double, cpuSeconds: Double
        ) {
            self.residentMemoryBytes = residentMemoryBytes
            self.openFileDescriptors = openFileDescriptors
            self.maximumFileDescriptors = maximumFileDescriptors
            self.startTimeSeconds = startTimeSeconds
            self.cpuSeconds = cpuSeconds
        }

        /// The sample in the text exposition format.
        package var exposition: String {
            [
                ("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", "\(residentMemoryBytes)"),
                ("process_open_fds", "gauge", "Number of open file descriptors.", "\(openFileDescriptors)"),
                ("process_max_fds", "gauge", "Maximum number of open file descriptors.", "\(maximumFileDescriptors)"),
                ("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch in seconds.", "\(startTimeSeconds)"),
                ("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", "\(cpuSeconds)"),
            ].map { name, type, help, value in "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n" }.joined()
        }
    }

    /// The clock ticks a second that `/proc` counts in.
    private static let ticksPerSecond = Double(max(1, sysconf(Int32(_SC_CLK_TCK))))

    /// When this process started, read once: its start in ticks after boot
    /// (`/proc/self/stat`) plus the boot time (`/proc/stat`'s `btime`).
    private static let startTimeSeconds: Double? = {
        guard let fields = statFields(), fields.count > 19, let ticks = Double(fields[19]),
            let stat = text("/proc/stat"),
            let bootLine = stat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let boot = Double(bootLine.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        return boot + ticks / ticksPerSecond
    }()

    /// A reading now; nil where `/proc` is not Linux's (the metrics are then left out).
    package static func sample() -> Sample? {
        guard let statm = text("/proc/self/statm")?.split(separator: " "), statm.count > 1, let pages = Int(statm[1]),
            let fields = statFields(), fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]),
            let startTimeSeconds,
            let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return nil }
        var limit = rlimit()
        let maximum = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        return Sample(
            residentMemoryBytes: pages * sysconf(Int32(_SC_PAGESIZE)),
            // Reading the directory opened one more, which the listing includes.
            openFileDescriptors: max(0, descriptors.count - 1), maximumFileDescriptors: maximum,
            startTimeSeconds: startTimeSeconds, cpuSeconds: (user + system) / ticksPerSecond)
    }

    /// The fields of `/proc/self/stat` after the command name (which may hold spaces and is
    /// in parentheses): index 0 is the state, 11 and 12 utime and stime, 19 the start time.
    private static func statFields() -> [Substring]? {
        guard let stat = text("/proc/self/stat"), let end = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: end)...].split(separator: " ")
    }

    /// The contents of a small `/proc` file.
    private static func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}
