import Foundation
import Synchronization

/// Where log lines go. The server writes to stderr; tests collect lines to inspect them.
package protocol LogSink: Sendable {
    /// Writes one complete line (no trailing newline included).
    func write(line: String)
}

/// Writes each line to standard error.
package struct StandardErrorSink: LogSink {
    /// Creates the sink.
    package init() {}

    package func write(line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

/// A structured logger: one JSON object per line with `ts`, `level`, `event` and fields.
///
/// Fields are plain strings and numbers chosen by the caller; secrets never reach a
/// logger because they are ``Redacted`` and the logger accepts no `Any`.
package struct Logger: Sendable {
    /// Severity of an event.
    package enum Level: String, Sendable, Comparable {
        case debug, info, warning, error

        private var rank: Int {
            switch self {
            case .debug: 0
            case .info: 1
            case .warning: 2
            case .error: 3
            }
        }

        package static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }
    }

    /// A field value: text, a number, or a flag.
    package enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)

        package init(stringLiteral value: String) { self = .string(value) }
        package init(integerLiteral value: Int) { self = .int(value) }
    }

    private let sink: any LogSink
    private let minimumLevel: Level
    private let clock: any WallClock

    /// Creates a logger writing lines at `minimumLevel` or above to `sink`.
    package init(sink: any LogSink = StandardErrorSink(), minimumLevel: Level = .info, clock: any WallClock = SystemClock()) {
        self.sink = sink
        self.minimumLevel = minimumLevel
        self.clock = clock
    }

    /// Logs `event` with `fields` at `level`.
    package func log(_ level: Level, _ event: String, _ fields: [String: Value] = [:]) {
        guard level >= minimumLevel else { return }
        var object: [String: Any] = [
            "ts": ISO8601DateFormatter().string(from: clock.now()),
            "level": level.rawValue,
            "event": event,
        ]
        for (key, value) in fields {
            switch value {
            case .string(let text): object[key] = text
            case .int(let number): object[key] = number
            case .double(let number): object[key] = number
            case .bool(let flag): object[key] = flag
            }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]),
              let line = String(data: data, encoding: .utf8) else { return }
        sink.write(line: line)
    }

    /// Logs at `info`.
    package func info(_ event: String, _ fields: [String: Value] = [:]) { log(.info, event, fields) }
    /// Logs at `warning`.
    package func warning(_ event: String, _ fields: [String: Value] = [:]) { log(.warning, event, fields) }
    /// Logs at `error`.
    package func error(_ event: String, _ fields: [String: Value] = [:]) { log(.error, event, fields) }
}
